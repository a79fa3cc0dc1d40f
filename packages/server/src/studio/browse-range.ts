import type { FilterValue } from "./shard-protocol.ts";

/** What a browse will run: one index range (or a search), an order, and the filters left to check per row. */
export interface BrowseRange {
  /** The index, or the search index of a search. */
  index: string;
  /** Set when the filter pins `_id`: the one document is read by its key, whatever the table's size. */
  id?: string;
  /** Set for a search: the words, in the search index's field. */
  search?: { field: string; text: string };
  /** Equalities on the index's leading keys, in key order. */
  eqs: { field: string; value: unknown }[];
  /** Bounds on the key after the equalities. */
  range: { field: string; gte?: unknown; lte?: unknown } | null;
  order: "asc" | "desc" | "relevance";
  /** Filter fields no index key serves: checked on each row read. */
  scan: { field: string; value: FilterValue }[];
}
