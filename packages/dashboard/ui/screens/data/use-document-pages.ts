import { useState } from "preact/hooks";
import type {
  BrowsePlan,
  BrowseQuery,
  DocumentsPage,
  StudioDocument,
  ViewerLabel,
} from "../../api/data.ts";
import { useDataApi } from "../../api/use-data-api.ts";
import { useLoad } from "../../lib/use-load.ts";

/** Rows per request: the grid asks for pages this big and appends them. */
export const PAGE_SIZE = 100;

/** What the grid shows: every row loaded so far and what the newest page said about itself. */
export interface DocumentPages {
  documents: StudioDocument[];
  viewer: ViewerLabel | undefined;
  /** The plan of the newest page (how it was served, how many rows it read). */
  plan: BrowsePlan | undefined;
  error: Error | undefined;
  loading: boolean;
  hasMore: boolean;
  loadingMore: boolean;
  moreError: Error | null;
  loadMore(): Promise<void>;
  reload(): void;
}

/**
 * The documents of one table under one browse (index, range, filter, view),
 * page after page: "Load more" appends the next page to what is shown, so a
 * long run of rows scrolls in one grid. A new browse starts over.
 */
export function useDocumentPages(shard: string, table: string, query: BrowseQuery): DocumentPages {
  const data = useDataApi();
  const key = JSON.stringify([shard, table, query]);
  const first = useLoad(
    (signal) => data.documents(shard, table, { ...query, limit: PAGE_SIZE }, signal),
    [key],
  );
  const [more, setMore] = useState<{ after: DocumentsPage; pages: DocumentsPage[] } | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreError, setMoreError] = useState<Error | null>(null);
  const extra = more !== null && more.after === first.data ? more.pages : [];
  const newest = extra.at(-1) ?? first.data;
  return {
    documents: [...(first.data?.documents ?? []), ...extra.flatMap((page) => page.documents)],
    viewer: first.data?.viewer,
    plan: newest?.plan,
    error: first.error,
    loading: first.loading,
    hasMore: (newest?.nextCursor ?? null) !== null,
    loadingMore,
    moreError,
    reload: first.reload,
    async loadMore() {
      const after = first.data;
      const cursor = newest?.nextCursor;
      if (after === undefined || cursor === undefined || cursor === null || loadingMore) return;
      setLoadingMore(true);
      setMoreError(null);
      try {
        const page = await data.documents(shard, table, { ...query, cursor, limit: PAGE_SIZE });
        setMore({ after, pages: [...extra, page] });
      } catch (error) {
        setMoreError(error instanceof Error ? error : new Error(String(error)));
      } finally {
        setLoadingMore(false);
      }
    },
  };
}
