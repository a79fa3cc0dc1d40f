import { useCallback, useEffect, useRef, useState } from "preact/hooks";

/**
 * What a screen knows about one request: the last good data (kept while a
 * reload runs, so the page does not flash), the error of the last attempt,
 * and whether one is in flight.
 */
export interface LoadState<T> {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
}

/** {@link useLoad}'s answer: the state plus a way to fetch again after a change. */
export interface Loaded<T> extends LoadState<T> {
  reload(): void;
}

/**
 * Runs `load` whenever `deps` change, aborting the previous run (a newer
 * search wins over an older, slower one), and on `reload()`.
 */
export function useLoad<T>(
  load: (signal: AbortSignal) => Promise<T>,
  deps: readonly unknown[],
): Loaded<T> {
  const [state, setState] = useState<LoadState<T>>({
    data: undefined,
    error: undefined,
    loading: true,
  });
  const [generation, setGeneration] = useState(0);
  const latest = useRef(load);
  latest.current = load;

  useEffect(() => {
    const controller = new AbortController();
    setState((previous) => ({ ...previous, loading: true }));
    latest
      .current(controller.signal)
      .then((data) => {
        if (!controller.signal.aborted) setState({ data, error: undefined, loading: false });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        const failure = error instanceof Error ? error : new Error(String(error));
        setState((previous) => ({ ...previous, error: failure, loading: false }));
      });
    return () => controller.abort();
  }, [...deps, generation]);

  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  return { ...state, reload };
}
