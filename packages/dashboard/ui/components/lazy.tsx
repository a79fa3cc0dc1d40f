import type { ComponentType } from "preact";
import { useEffect, useState } from "preact/hooks";
import { ErrorNotice, Loading } from "./states.tsx";

/**
 * A component whose code is fetched the first time it is shown (`import()`
 * becomes a chunk of its own in the build), so screens an operator may never
 * open do not weigh on the first load. Until the chunk arrives it shows a
 * loading line; if fetching fails (offline, or a deploy replaced the chunk)
 * it says so with **Try again**. Once loaded, every later use is immediate.
 *
 * @example
 * ```tsx
 * const ApiPage = lazyComponent(() => import("./screens/api/api-page.tsx").then((m) => m.ApiPage));
 * <ApiPage filter="" />;
 * ```
 */
export function lazyComponent<P extends object>(
  load: () => Promise<ComponentType<P>>,
): ComponentType<P> {
  let loaded: ComponentType<P> | undefined;
  return function LazyComponent(props: P) {
    const [component, setComponent] = useState(() => loaded);
    const [failed, setFailed] = useState(false);
    const [attempt, setAttempt] = useState(0);
    useEffect(() => {
      if (component !== undefined) return;
      let current = true;
      load().then(
        (found) => {
          loaded = found;
          if (current) setComponent(() => found);
        },
        () => {
          if (current) setFailed(true);
        },
      );
      return () => {
        current = false;
      };
    }, [component, attempt]);
    if (component !== undefined) {
      const Loaded = component;
      return <Loaded {...props} />;
    }
    if (failed) {
      return (
        <ErrorNotice
          error={
            new Error(
              "This part of the dashboard could not be loaded. Check the connection, or reload the page if the dashboard was just updated.",
            )
          }
          onRetry={() => {
            setFailed(false);
            setAttempt((count) => count + 1);
          }}
        />
      );
    }
    return <Loading />;
  };
}
