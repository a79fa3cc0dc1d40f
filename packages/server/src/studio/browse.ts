import { TableQuery } from "../db/query.ts";
import type { SearchFilterBuilder, SearchFilterState, SearchQuery } from "../db/search/types.ts";
import type { DatabaseReader, IndexRange, IndexRangeState } from "../db/types.ts";
import { fieldValue } from "../schema/rule.ts";
import type { SearchIndexSpec } from "../schema/search-index.ts";
import { tableOfId } from "../values/ids.ts";
import type { BrowseRange } from "./browse-range.ts";
import type { BrowsePage, FilterValue, StudioDocument } from "./shard-protocol.ts";

/**
 * Most rows one browse page reads from SQLite (rows hidden by a function
 * policy or failing a filter included). A filter no index serves, on a
 * million-row table, answers after this many rows with a cursor to go on,
 * rather than holding the shard for a full scan.
 */
export const SCAN_LIMIT = 2_000;

/** A filter equality on one row; `null` also matches an absent field, as an index's `IS NULL` does. */
function matches(doc: Record<string, unknown>, field: string, value: FilterValue): boolean {
  const actual = fieldValue(doc, field);
  return value === null ? actual === null || actual === undefined : actual === value;
}

type AnyRange = IndexRange<StudioDocument, string[]>;
type AnySearch = SearchFilterBuilder<StudioDocument, SearchIndexSpec>;

/** The rows of a plan: its index range in its order, or its search by relevance. */
function rowsOf(db: DatabaseReader, table: string, plan: BrowseRange): SearchQuery<StudioDocument> {
  const { eqs, range, search } = plan;
  if (search !== undefined) {
    return db.query(table).withSearchIndex(plan.index, (q: AnySearch): SearchFilterState => {
      let filtered = q.search(search.field, search.text);
      for (const { field, value } of eqs) filtered = filtered.eq(field, value);
      return filtered;
    });
  }
  return db
    .query(table)
    .withIndex(plan.index, (start: AnyRange): IndexRangeState => {
      let pinned = start;
      for (const { field, value } of eqs) pinned = pinned.eq(field, value);
      if (range === null) return pinned;
      if (range.gte === undefined) return pinned.lte(range.field, range.lte);
      const lower = pinned.gte(range.field, range.gte);
      return range.lte === undefined ? lower : lower.lte(range.field, range.lte);
    })
    .order(plan.order === "desc" ? "desc" : "asc");
}

/** The page of a browse pinned to one `_id`: that document (as `db` sees it) if it passes the other filters. */
async function byId(
  db: DatabaseReader,
  table: string,
  plan: BrowseRange,
  id: string,
): Promise<BrowsePage> {
  const found = tableOfId(id) === table ? await db.get(id) : null;
  const document = found as StudioDocument | null;
  const kept =
    document !== null && plan.scan.every(({ field, value }) => matches(document, field, value));
  return {
    documents: kept ? [document] : [],
    nextCursor: null,
    plan: {
      index: plan.index,
      eqFields: ["_id"],
      rangeField: null,
      order: "asc",
      scanFields: plan.scan.map((entry) => entry.field),
      served: plan.scan.length === 0 ? "index" : "scan",
      scanned: document === null ? 0 : 1,
      scanLimit: SCAN_LIMIT,
      scanLimited: false,
    },
  };
}

/**
 * Runs a planned browse through `db` (a handle from the shard's dispatcher,
 * so RLS is whatever that handle enforces) and answers one bounded page.
 *
 * @example await browse(db, "messages", planBrowse(…), { cursor: null, limit: 25 })
 */
export async function browse(
  db: DatabaseReader,
  table: string,
  plan: BrowseRange,
  page: { cursor: string | null; limit: number },
): Promise<BrowsePage> {
  const { eqs, range, scan } = plan;
  if (plan.id !== undefined) return byId(db, table, plan, plan.id);
  let query = rowsOf(db, table, plan);
  for (const { field, value } of scan) query = query.filter((doc) => matches(doc, field, value));
  if (!(query instanceof TableQuery)) throw new Error("svc: the database answered a foreign query");
  const result = await query.boundedPage({
    cursor: page.cursor,
    numItems: page.limit,
    maxScanned: SCAN_LIMIT,
  });
  return {
    documents: result.page as StudioDocument[],
    nextCursor: result.isDone ? null : result.continueCursor,
    plan: {
      index: plan.index,
      eqFields: eqs.map((eq) => eq.field),
      rangeField: range?.field ?? null,
      order: plan.order,
      scanFields: scan.map((entry) => entry.field),
      served: scan.length === 0 ? "index" : "scan",
      scanned: result.scanned,
      scanLimit: SCAN_LIMIT,
      scanLimited: result.scanLimited === true,
    },
  };
}
