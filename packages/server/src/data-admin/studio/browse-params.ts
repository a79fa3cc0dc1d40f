import { validationFailed } from "../../errors/validation-failed.ts";
import type { BrowseQuery, FilterValue } from "../../studio/shard-protocol.ts";
import { parseJson } from "../../values/json-codec.ts";

/** Page size of a browse without `limit`. */
export const DEFAULT_BROWSE_LIMIT = 25;
/** Largest `limit` of a browse. */
export const MAX_BROWSE_LIMIT = 100;

/** The browse query string as the route declares it: JSON-valued parameters still text. */
export interface BrowseParams {
  index?: string;
  eq?: string;
  gte?: string;
  lte?: string;
  order?: "asc" | "desc";
  filter?: string;
  search?: string;
  searchIndex?: string;
  cursor?: string;
  limit?: number;
  asUser?: string;
}

function invalid(name: string, message: string): never {
  throw validationFailed([{ path: `query.${name}`, message }]);
}

/** A JSON-valued parameter in svc's encoding (`{"$int64":"…"}` allowed), or a clear 400. */
function jsonParam(name: string, text: string): unknown {
  try {
    return parseJson(text);
  } catch {
    return invalid(name, 'must be JSON (a string in quotes: "general")');
  }
}

function isFilterValue(value: unknown): value is FilterValue {
  return (
    value === null ||
    typeof value === "string" ||
    typeof value === "boolean" ||
    (typeof value === "number" && Number.isFinite(value))
  );
}

/**
 * Reads the JSON-valued parameters of `GET …/documents`: `eq` is a JSON array
 * (values of the index's leading fields), `gte` / `lte` JSON values, `filter`
 * a JSON object of field → string, number, boolean or null; `limit` 1 to
 * {@link MAX_BROWSE_LIMIT}. Each refusal names its parameter (`query.eq`).
 *
 * @example browseQueryOf({ index: "by_channel", eq: '["general"]' }) // { index: "by_channel", eq: ["general"], limit: 25 }
 */
export function browseQueryOf(params: BrowseParams): Omit<BrowseQuery, "table" | "viewer"> {
  const limit = params.limit ?? DEFAULT_BROWSE_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_BROWSE_LIMIT)
    invalid("limit", `must be an integer from 1 to ${MAX_BROWSE_LIMIT}`);
  const query: Omit<BrowseQuery, "table" | "viewer"> = { limit };
  if (params.index !== undefined && params.index !== "") query.index = params.index;
  if (params.order !== undefined) query.order = params.order;
  if (params.cursor !== undefined && params.cursor !== "") query.cursor = params.cursor;
  if (params.search !== undefined && params.search.trim() !== "") query.search = params.search;
  if (params.searchIndex !== undefined && params.searchIndex !== "")
    query.searchIndex = params.searchIndex;
  if (params.eq !== undefined && params.eq !== "") {
    const eq = jsonParam("eq", params.eq);
    if (!Array.isArray(eq)) invalid("eq", "must be a JSON array of the index fields' values");
    query.eq = eq;
  }
  if (params.gte !== undefined && params.gte !== "") query.gte = jsonParam("gte", params.gte);
  if (params.lte !== undefined && params.lte !== "") query.lte = jsonParam("lte", params.lte);
  if (params.filter !== undefined && params.filter !== "") {
    const filter = jsonParam("filter", params.filter);
    if (filter === null || typeof filter !== "object" || Array.isArray(filter))
      invalid("filter", "must be a JSON object of field → value");
    for (const [field, value] of Object.entries(filter)) {
      if (!isFilterValue(value))
        invalid("filter", `${field}: compare with a string, number, boolean or null`);
    }
    query.filter = filter as Record<string, FilterValue>;
  }
  return query;
}
