import { validationFailed } from "../errors/validation-failed.ts";
import type { AnyTableDefinition } from "../schema/define.ts";
import type { BrowseRange } from "./browse-range.ts";
import type { BrowseQuery } from "./shard-protocol.ts";

function invalid(parameter: string, message: string): never {
  throw validationFailed([{ path: `query.${parameter}`, message }]);
}

/**
 * Plans a data-studio search: the words of `search` through `searchIndex`
 * (the table's first search index when absent), most relevant first. Filter
 * fields that are the index's filter fields narrow the search itself; any
 * other filter field is checked row by row, as a browse's scan is. A search
 * has no index range or order: those parameters are refused, not ignored.
 *
 * @example
 * planSearchBrowse(messages, { search: "deploy", filter: { channel: "ops" } })
 * // { index: "search_body", search: "deploy", eqs: [{ field: "channel", value: "ops" }], order: "relevance", … }
 */
export function planSearchBrowse(
  definition: AnyTableDefinition,
  query: Omit<BrowseQuery, "table" | "viewer" | "cursor" | "limit"> & { search: string },
): BrowseRange {
  for (const parameter of ["index", "eq", "gte", "lte", "order"] as const) {
    if (query[parameter] !== undefined)
      invalid(parameter, "a search answers by relevance: leave index, eq, gte, lte and order out");
  }
  const names = Object.keys(definition.searchIndexes);
  const index = query.searchIndex ?? names[0];
  if (index === undefined) invalid("search", "the table has no search index");
  const spec = Object.hasOwn(definition.searchIndexes, index)
    ? definition.searchIndexes[index]
    : undefined;
  if (spec === undefined)
    invalid("searchIndex", `the table has no search index ${JSON.stringify(index)}`);
  const filter = Object.entries(query.filter ?? {});
  const eqs = filter
    .filter(([field]) => spec.filterFields.includes(field))
    .map(([field, value]) => ({ field, value }));
  const scan = filter
    .filter(([field]) => !spec.filterFields.includes(field))
    .map(([field, value]) => ({ field, value }));
  return {
    index,
    search: { field: spec.searchField, text: query.search },
    eqs,
    range: null,
    order: "relevance",
    scan,
  };
}
