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
