import { SvcError } from "../../errors/svc-error.ts";
import type { SearchIndexSpec } from "../../schema/search-index.ts";
import { ftsTableName } from "./fts-tables.ts";
import { toMatchExpression } from "./match.ts";

/**
 * What `withSearchIndex(name, q => q.search(...).eq(...))` asks for, checked.
 *
 * @example const plan: SearchPlan = { fts: "s_messages__search_body__1k", match: '"hi"*', eqs: [] };
 */
export interface SearchPlan {
  /** The FTS5 table of the index. */
  fts: string;
  /** The FTS5 query: the user's words, each quoted (see `toMatchExpression`). */
  match: string;
  /** Equalities on the index's filter fields. */
  eqs: { field: string; value: unknown }[];
}

/**
 * The search builder as the runtime sees it: names and values checked here, not by types.
 *
 * @example planSearch(table, name, spec, (q: LooseSearchFilter) => q.search("body", text));
 */
export interface LooseSearchFilter {
  search(field: string, text: string): LooseSearchFilter;
  eq(field: string, value: unknown): LooseSearchFilter;
}

/**
 * Runs a `withSearchIndex` callback against the index's declaration: one
 * `search` on its search field first, then `eq` on its filter fields, each
 * at most once. Misuse is a `BAD_REQUEST` naming the index.
 *
 * @example
 * planSearch("messages", "search_body", spec, (q) => q.search("body", "hi").eq("channel", "ops"))
 * // { fts: "s_messages__search_body__…", match: '"hi"*', eqs: [{ field: "channel", value: "ops" }] }
 */
export function planSearch(
  table: string,
  name: string,
  spec: SearchIndexSpec,
  define: (q: LooseSearchFilter) => unknown,
): SearchPlan {
  const misuse = (message: string) =>
    new SvcError("BAD_REQUEST", `withSearchIndex(${JSON.stringify(name)}): ${message}`);
  let match: string | undefined;
  const eqs: SearchPlan["eqs"] = [];
  const filter: LooseSearchFilter = {
    search(field, text) {
      if (match !== undefined) throw misuse("search() is called once");
      if (field !== spec.searchField)
        throw misuse(`search() is on ${spec.searchField}, got ${String(field)}`);
      match = toMatchExpression(text);
      return filter;
    },
    eq(field, value) {
      if (match === undefined) throw misuse("search() must come before eq()");
      if (!spec.filterFields.includes(field))
        throw misuse(`${String(field)} is not a filter field of this index`);
      if (eqs.some((eq) => eq.field === field)) throw misuse(`two eq() on ${field}`);
      eqs.push({ field, value });
      return filter;
    },
  };
  if (typeof define !== "function") throw misuse("needs a callback that calls q.search()");
  define(filter);
  if (match === undefined) throw misuse("the callback must call q.search(field, text)");
  return { fts: ftsTableName(table, name, spec), match, eqs };
}

/**
 * Most matching documents a search ranks: the newest ones the caller may
 * see (declarative RLS and filter fields apply first). Ranking and sorting
 * every match of a common word cost 680 ms for 90,000 matches here, this
 * bound brought it to ~30 ms (bench/scenarios/search.ts); hosted search
 * services bound their hits the same way. What is left grows with the
 * shard: `bm25()` counts every document holding each word for its weight.
 *
 * @example `ORDER BY rowid DESC LIMIT ${MAX_SEARCH_CANDIDATES}`
 */
export const MAX_SEARCH_CANDIDATES = 1_000;

/**
 * The rows a search reads, as a subquery with the columns of a table row
 * plus `_score` (BM25, lower is more relevant): the newest
 * {@link MAX_SEARCH_CANDIDATES} matches that pass `where` (RLS and filter
 * equalities over the document row). The outer query adds the cursor and
 * orders them by relevance.
 *
 * @example searchSource("messages", plan, [], []).sql // "(SELECT t._id AS _id, … LIMIT 1000)"
 */
export function searchSource(
  table: string,
  plan: SearchPlan,
  where: string[],
  whereBindings: SqlStorageValue[],
): { sql: string; bindings: SqlStorageValue[] } {
  const fts = `"${plan.fts}"`;
  const conditions = [`${fts} MATCH ?`, ...where].join(" AND ");
  return {
    sql:
      `(SELECT t._id AS _id, t._creationTime AS _creationTime, t._doc AS _doc, bm25(${fts}) AS _score` +
      ` FROM ${fts} JOIN "t_${table}" AS t ON t.rowid = ${fts}.rowid WHERE ${conditions}` +
      ` ORDER BY ${fts}.rowid DESC LIMIT ${MAX_SEARCH_CANDIDATES})`,
    bindings: [plan.match, ...whereBindings],
  };
}

/**
 * The sort keys of a search: relevance, then the oldest first, then the id.
 *
 * @example `ORDER BY ${SEARCH_KEYS.join(", ")}` // "ORDER BY _score, _creationTime, _id"
 */
export const SEARCH_KEYS: readonly string[] = Object.freeze(["_score", "_creationTime", "_id"]);

/**
 * A search over an index that does not exist yet (still being built after a
 * deploy, see `applySearchIndexes`): a 503 the caller may retry.
 *
 * @example throw searchIndexBuilding("search_body");
 */
export function searchIndexBuilding(name: string): SvcError {
  return new SvcError(
    "UNAVAILABLE",
    `The search index ${JSON.stringify(name)} is still being built; try again shortly.`,
  );
}
