/**
 * A text search index of a table: the one field whose words are indexed, and
 * the fields a search may also require equal (`q.eq(field, value)`).
 *
 * @example
 * ```ts
 * const spec: SearchIndexSpec = { searchField: "body", filterFields: ["channel"] };
 * ```
 * @see ../../../../docs/search.md
 */
export interface SearchIndexSpec<
  SearchField extends string = string,
  FilterFields extends readonly string[] = readonly string[],
> {
  readonly searchField: SearchField;
  readonly filterFields: FilterFields;
}

/**
 * What `searchIndex(name, { ... })` accepts: `filterFields` may be left out.
 *
 * @example defineTable({ body: v.string() }).searchIndex("search_body", { searchField: "body" });
 */
export interface SearchIndexOptions<
  SearchField extends string,
  FilterFields extends readonly string[],
> {
  searchField: SearchField;
  filterFields?: FilterFields;
}

/**
 * Checks a search index declaration against its table's fields and returns
 * it frozen, so a typo fails when the schema loads, not on the first search.
 *
 * @example
 * checkSearchIndex("search_body", { searchField: "body" }, (f) => f === "body")
 * // { searchField: "body", filterFields: [] }
 */
export function checkSearchIndex(
  name: string,
  options: SearchIndexOptions<string, readonly string[]>,
  isField: (field: string) => boolean,
): SearchIndexSpec {
  const fail = (message: string) => new Error(`svc: search index ${name} ${message}`);
  if (typeof options !== "object" || options === null) throw fail("needs { searchField }");
  const { searchField, filterFields = [] } = options;
  if (typeof searchField !== "string" || !isField(searchField))
    throw fail(`names searchField ${JSON.stringify(searchField)}, which is not a field`);
  if (!Array.isArray(filterFields)) throw fail("needs filterFields as an array of field names");
  for (const field of filterFields) {
    if (typeof field !== "string" || !isField(field))
      throw fail(`names filter field ${JSON.stringify(field)}, which is not a field`);
  }
  if (new Set(filterFields).size !== filterFields.length) throw fail("repeats a filter field");
  return Object.freeze({ searchField, filterFields: Object.freeze([...filterFields]) });
}

/**
 * The longest search text accepted, in characters: a query, not a document.
 *
 * @example if (text.length > MAX_SEARCH_TEXT) text = text.slice(0, MAX_SEARCH_TEXT);
 */
export const MAX_SEARCH_TEXT = 1_000;

/**
 * The most words a search may hold; each one is a lookup in the index.
 *
 * @example text.split(/\s+/).slice(0, MAX_SEARCH_TERMS).join(" ")
 */
export const MAX_SEARCH_TERMS = 32;
