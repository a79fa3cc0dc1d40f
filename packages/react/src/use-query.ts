import {
  type ArgsOf,
  type OutputOf,
  type PublicRef,
  type QueryState,
  type QueryWatch,
  queryKey,
} from "@svc/client";
import { useSyncExternalStore } from "react";
import { useSvcClient } from "./context.ts";
import { useKeyed } from "./memo.ts";

/** Options of {@link useQuery} and {@link usePaginatedQuery}. */
export interface QueryOptions {
  /** The shard to watch. Default: the client's. */
  shardKey?: string;
}

const LOADING: QueryState<never> = Object.freeze({
  status: "loading",
  value: undefined,
  error: undefined,
});
const SKIPPED: QueryWatch<never> = {
  getSnapshot: () => LOADING,
  subscribe: () => () => {},
};
const serverSnapshot = () => LOADING;

/**
 * A live query: `undefined` while it loads (and during server-side
 * rendering, where nothing connects), then its value, re-rendered whenever
 * the server pushes a change or an optimistic update applies. Every
 * component watching the same query and arguments shares one subscription.
 * `"skip"` instead of arguments watches nothing (e.g. until an id is known).
 * A failed query throws its `SvcClientError` to the nearest error boundary.
 *
 * @example
 * ```tsx
 * const notes = useQuery(api.notes.list, {});
 * if (notes === undefined) return <p>Loading…</p>;
 * return <ul>{notes.map((note) => <li key={note._id}>{note.text}</li>)}</ul>;
 * ```
 */
export function useQuery<Ref extends PublicRef<"query">>(
  ref: Ref,
  args: ArgsOf<Ref> | "skip",
  options: QueryOptions = {},
): OutputOf<Ref> | undefined {
  const state = useQueryState(ref, args, options);
  if (state.status === "error") throw state.error;
  return state.value;
}

/**
 * {@link useQuery} without throwing: the query's whole state
 * (`loading` / `success` / `error`), for a component that shows its own error.
 *
 * @example
 * ```tsx
 * const notes = useQueryState(api.notes.list, {});
 * if (notes.status === "error") return <p role="alert">{notes.error.message}</p>;
 * ```
 */
export function useQueryState<Ref extends PublicRef<"query">>(
  ref: Ref,
  args: ArgsOf<Ref> | "skip",
  options: QueryOptions = {},
): QueryState<OutputOf<Ref>> {
  const client = useSvcClient();
  const key = args === "skip" ? "skip" : queryKey(options.shardKey ?? "", ref.path, args);
  const watch = useKeyed(client, key, () =>
    args === "skip" ? SKIPPED : client.watchQuery(ref, args, options),
  );
  return useSyncExternalStore(watch.subscribe, watch.getSnapshot, serverSnapshot);
}
