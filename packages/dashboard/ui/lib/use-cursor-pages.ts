import { useState } from "preact/hooks";
import { FIRST_PAGE, type PagePosition } from "./routes.ts";

/** {@link useCursorPages}'s answer, ready for the `Pager`. */
export interface CursorPages {
  /** The cursor to load (`undefined` on the first page). */
  cursor: string | undefined;
  /** Rows before this page, for "26–50 of 132". */
  offset: number;
  hasPrevious: boolean;
  /** "← Previous", or "← First page" when the page before is not known (after a reload). */
  previousLabel: string;
  previous(): void;
  next(cursor: string): void;
}

/**
 * Previous / next over cursor pages whose position lives in the URL, so
 * reload and back keep the page (`go` navigates to a position). Cursors only
 * lead forward, so this remembers the cursors of the pages passed through
 * while the list is open; the pages before a reloaded one are not known, and
 * "previous" then leads to the first page and says so. A new `list` (other
 * filters) forgets them.
 */
export function useCursorPages(
  list: string,
  at: PagePosition,
  pageSize: number,
  go: (at: PagePosition) => void,
): CursorPages {
  const [trail, setTrail] = useState<{ list: string; cursors: Record<number, string> }>({
    list,
    cursors: {},
  });
  const cursors = trail.list === list ? trail.cursors : {};
  const before = at.number - 1;
  const previousCursor = before === 1 ? "" : cursors[before];
  return {
    cursor: at.cursor === "" ? undefined : at.cursor,
    offset: (at.number - 1) * pageSize,
    hasPrevious: at.number > 1,
    previousLabel: previousCursor === undefined ? "← First page" : "← Previous",
    previous() {
      go(previousCursor === undefined ? FIRST_PAGE : { number: before, cursor: previousCursor });
    },
    next(cursor) {
      setTrail({ list, cursors: { ...cursors, [at.number]: at.cursor } });
      go({ number: at.number + 1, cursor });
    },
  };
}
