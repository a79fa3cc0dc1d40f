import { useState } from "preact/hooks";
import { type Loaded, useLoad } from "./use-load.ts";

/** One page of a cursor-paged admin list, with its items under a common name. */
export interface ListPage<T> {
  items: T[];
  nextCursor: string | null;
}

/** {@link usePagedList}'s answer: the first load (for loading/error states) and the items so far. */
export interface PagedList<T> {
  first: Loaded<ListPage<T>>;
  /** The first page plus every page loaded with {@link PagedList.loadMore}. */
  items: T[];
  hasMore: boolean;
  loadingMore: boolean;
  moreError: Error | null;
  loadMore(): Promise<void>;
}

/**
 * A "Load more" list over opaque cursors (members, invitations, audit).
 * Pages loaded later belong to the first page they followed, so a reload or
 * new filter starts over cleanly.
 */
export function usePagedList<T>(
  fetchPage: (cursor: string | undefined, signal?: AbortSignal) => Promise<ListPage<T>>,
  deps: readonly unknown[],
): PagedList<T> {
  const first = useLoad((signal) => fetchPage(undefined, signal), deps);
  const [more, setMore] = useState<{ after: ListPage<T>; page: ListPage<T> } | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreError, setMoreError] = useState<Error | null>(null);
  const extra = more !== null && more.after === first.data ? more.page : null;
  const items = [...(first.data?.items ?? []), ...(extra?.items ?? [])];
  const nextCursor = extra ? extra.nextCursor : (first.data?.nextCursor ?? null);

  return {
    first,
    items,
    hasMore: nextCursor !== null,
    loadingMore,
    moreError,
    async loadMore() {
      const after = first.data;
      if (nextCursor === null || after === undefined || loadingMore) return;
      setLoadingMore(true);
      setMoreError(null);
      try {
        const page = await fetchPage(nextCursor);
        setMore({
          after,
          page: { items: [...(extra?.items ?? []), ...page.items], nextCursor: page.nextCursor },
        });
      } catch (error) {
        setMoreError(error instanceof Error ? error : new Error(String(error)));
      } finally {
        setLoadingMore(false);
      }
    },
  };
}
