import { CREATION_TIME_INDEX } from "../db/query.ts";
import { validationFailed } from "../errors/validation-failed.ts";
import type { AnyTableDefinition } from "../schema/define.ts";
import type { BrowseRange } from "./browse-range.ts";
import { planSearchBrowse } from "./browse-search-plan.ts";
import type { BrowseQuery, FilterValue } from "./shard-protocol.ts";
import { indexFields } from "./tables.ts";

const SYSTEM_FIELDS = new Set(["_id", "_creationTime"]);

/** The plan's index name when `_id` is pinned: the document's primary key, not a declared index. */
export const ID_KEY = "by_id";

function invalid(parameter: string, message: string): never {
  throw validationFailed([{ path: `query.${parameter}`, message }]);
}

/** The index whose leading fields the filter pins the most of (ties: declaration order). */
function bestIndexFor(
  definition: AnyTableDefinition,
  filter: Record<string, FilterValue>,
): string | undefined {
  let best: { name: string; covered: number } | undefined;
  for (const [name, fields] of Object.entries(definition.indexes)) {
    let covered = 0;
    while (covered < fields.length && Object.hasOwn(filter, fields[covered] ?? "")) covered++;
    if (covered > 0 && (best === undefined || covered > best.covered)) best = { name, covered };
  }
  return best?.name;
}

/**
 * Plans a data-studio browse. An explicit `index` is used as given (`eq` pins
 * its leading fields, `gte`/`lte` bound the next key); without one, the index
 * that serves most of `filter` is chosen, else `by_creation_time`. Filter
 * fields on the index keys right after the equalities extend them; every other
 * filter field is checked row by row (a bounded scan, reported as such).
 * A filter on `_id` reads that one document by its key ({@link ID_KEY}).
 *
 * @example
 * planBrowse(messages, { filter: { author: "u1", body: "hi" }, … })
 * // { index: "by_author", eqs: [{ field: "author", value: "u1" }], scan: [{ field: "body", value: "hi" }], … }
 */
export function planBrowse(
  definition: AnyTableDefinition,
  query: Omit<BrowseQuery, "table" | "viewer" | "cursor" | "limit">,
): BrowseRange {
  const filter = query.filter ?? {};
  for (const field of Object.keys(filter)) {
    const root = field.split(".")[0] ?? "";
    if (!Object.hasOwn(definition.fields, root) && !SYSTEM_FIELDS.has(field))
      invalid("filter", `${JSON.stringify(field)} is not a field of the table`);
  }
  const { search } = query;
  if (search !== undefined) return planSearchBrowse(definition, { ...query, search });
  const eqValues = query.eq ?? [];
  const hasRange = query.gte !== undefined || query.lte !== undefined;
  const id = filter._id;
  if (id !== undefined && query.index === undefined && !hasRange) {
    // A linked document (`?filter={"_id":…}`) is one key lookup, never a scan of the table.
    if (typeof id !== "string") invalid("filter", "_id: compare with a document id (a string)");
    const scan = Object.entries(filter)
      .filter(([field]) => field !== "_id")
      .map(([field, value]) => ({ field, value }));
    const eqs = [{ field: "_id", value: id }];
    return { index: ID_KEY, id, eqs, range: null, order: "asc", scan };
  }
  if (query.index === undefined && eqValues.length > 0)
    invalid("eq", "eq needs an index (the values pin its leading fields)");
  const index =
    query.index ??
    (hasRange ? CREATION_TIME_INDEX : bestIndexFor(definition, filter)) ??
    CREATION_TIME_INDEX;
  const fields = indexFields(definition, index);
  if (fields === undefined) invalid("index", `the table has no index ${JSON.stringify(index)}`);
  const keys = [...fields, "_creationTime"];
  if (eqValues.length > fields.length)
    invalid(
      "eq",
      `index ${index} has ${fields.length} field(s); eq gave ${eqValues.length} values`,
    );
  const eqs = eqValues.map((value, position) => ({ field: keys[position] ?? "", value }));
  const pinned = new Set(eqs.map((eq) => eq.field));
  if (!hasRange) {
    // The filter continues the equality prefix for as long as it names the next index field.
    for (let next = keys[eqs.length]; next !== undefined && Object.hasOwn(filter, next); ) {
      if (next === "_creationTime") break;
      eqs.push({ field: next, value: filter[next] });
      pinned.add(next);
      next = keys[eqs.length];
    }
  }
  const rangeField = keys[eqs.length];
  const range =
    hasRange && rangeField !== undefined
      ? {
          field: rangeField,
          ...(query.gte !== undefined ? { gte: query.gte } : {}),
          ...(query.lte !== undefined ? { lte: query.lte } : {}),
        }
      : null;
  const scan = Object.entries(filter)
    .filter(
      ([field, value]) =>
        !(pinned.has(field) && eqs.some((eq) => eq.field === field && eq.value === value)),
    )
    .map(([field, value]) => ({ field, value }));
  return { index, eqs, range, order: query.order ?? "asc", scan };
}
