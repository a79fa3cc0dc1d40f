import { v } from "../values/index.ts";

/**
 * The validator of a paginated query's `paginationOpts` argument: what
 * `usePaginatedQuery` (and any client paging by hand) sends, and exactly what
 * `.paginate()` takes, so the handler passes it straight through.
 *
 * @example
 * ```ts
 * export const page = query
 *   .input({ paginationOpts: paginationOptsValidator })
 *   .handler((ctx, args) => ctx.db.query("notes").order("desc").paginate(args.paginationOpts));
 * ```
 */
export const paginationOptsValidator = v.object({
  cursor: v.union(v.string(), v.null()),
  numItems: v.number(),
  endCursor: v.optional(v.union(v.string(), v.null())),
});

/** Options of `paginate`: where to continue and how many visible rows to return. */
export interface PaginationOptions {
  cursor: string | null;
  numItems: number;
  /**
   * Pins the page's end: every visible row after `cursor` up to and including
   * this cursor's row, however many (`numItems` is ignored). A live page
   * keyed this way grows and shrinks with inserts and deletes in its range and
   * never drops a row into a gap between pages; `usePaginatedQuery` pins each
   * loaded page but the last.
   */
  endCursor?: string | null;
}

/** One page; pass `continueCursor` back to get the next. */
export interface PaginationResult<Doc> {
  page: Doc[];
  isDone: boolean;
  continueCursor: string;
}
