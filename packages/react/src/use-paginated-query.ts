import {
  type PaginatedArgs,
  type PaginatedItem,
  type PaginatedState,
  type PaginatedWatch,
  type PaginationStatus,
  type PublicRef,
  queryKey,
} from "@svc/client";
import { useCallback, useSyncExternalStore } from "react";
import { useSvcClient } from "./context.ts";
import { useKeyed } from "./memo.ts";

/** Options of {@link usePaginatedQuery}. */
export interface PaginatedQueryHookOptions {
  /** Rows in the first page. */
  initialNumItems: number;
  /** The shard to watch. Default: the client's. */
  shardKey?: string;
}

/** What {@link usePaginatedQuery} answers. */
export interface UsePaginatedQueryResult<Item> {
  /** Every loaded row, in the query's order, live. */
  results: Item[];
  status: PaginationStatus;
  isLoading: boolean;
  /** Loads `numItems` more rows (does nothing unless `status` is `CanLoadMore`). */
  loadMore: (numItems: number) => void;
}

const SKIPPED_STATE: PaginatedState<never> = Object.freeze({
  results: [],
  status: "LoadingFirstPage",
  isLoading: true,
  error: undefined,
});
const SKIPPED: PaginatedWatch<never> = {
  getSnapshot: () => SKIPPED_STATE,
  subscribe: () => () => {},
  loadMore: () => false,
};
const serverSnapshot = () => SKIPPED_STATE;

/**
 * A paginated live query: the first `initialNumItems` rows, then more with
 * `loadMore`. Every loaded page stays live (inserts and deletes anywhere show
 * up, nothing slips between pages). The query takes
 * `paginationOpts: paginationOptsValidator` and hands it to `.paginate()`;
 * pass the other arguments here. A failing page throws its `SvcClientError`.
 *
 * @example
 * ```tsx
 * const { results, status, loadMore } = usePaginatedQuery(api.notes.page, {}, { initialNumItems: 20 });
 * <button disabled={status !== "CanLoadMore"} onClick={() => loadMore(20)}>More</button>
 * ```
 */
export function usePaginatedQuery<Ref extends PublicRef<"query">>(
  ref: Ref,
  args: PaginatedArgs<Ref> | "skip",
  options: PaginatedQueryHookOptions,
): UsePaginatedQueryResult<PaginatedItem<Ref>> {
  const client = useSvcClient();
  const key =
    args === "skip"
      ? "skip"
      : `${options.initialNumItems}\u0000${queryKey(options.shardKey ?? "", ref.path, args)}`;
  const watch = useKeyed(
    client,
    key,
    (): PaginatedWatch<PaginatedItem<Ref>> =>
      args === "skip" ? SKIPPED : client.watchPaginatedQuery(ref, args, options),
  );
  const state = useSyncExternalStore(watch.subscribe, watch.getSnapshot, serverSnapshot);
  if (state.error !== undefined) throw state.error;
  const loadMore = useCallback((numItems: number) => void watch.loadMore(numItems), [watch]);
  return { results: state.results, status: state.status, isLoading: state.isLoading, loadMore };
}
