import type { PagedList } from "../lib/use-paged-list.ts";
import { ErrorNotice } from "./states.tsx";

/** The "Load more" button of a {@link PagedList}, with the error of the last try. */
export function LoadMore<T>(props: { list: PagedList<T>; label?: string }) {
  const { list } = props;
  return (
    <>
      {list.moreError ? <ErrorNotice error={list.moreError} compact /> : null}
      {list.hasMore ? (
        <div class="load-more">
          <button
            type="button"
            class="btn btn-small"
            disabled={list.loadingMore}
            onClick={() => list.loadMore()}
          >
            {list.loadingMore ? "Loading…" : (props.label ?? "Load more")}
          </button>
        </div>
      ) : null}
    </>
  );
}
