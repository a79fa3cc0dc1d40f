import { SvcError } from "../../errors/svc-error.ts";
import type { SearchIndexSpec } from "../../schema/search-index.ts";
import { bm25Score, inverseDocumentFrequency } from "./bm25.ts";
import { ftsTableName } from "./fts-tables.ts";
import { type SearchPhrase, searchPhrases } from "./match.ts";
import { indexTotals, phraseDocuments } from "./phrase-documents.ts";
import { searchTokens } from "./tokens.ts";

/**
 * What `withSearchIndex(name, q => q.search(...).eq(...))` asks for, checked.
 *
 * @example
 * const plan: SearchPlan = {
 *   fts: "s_messages__search_body__1k",
 *   field: "body",
 *   phrases: [{ match: '"hi"*', tokens: ["hi"], prefix: true }],
 *   eqs: [],
 * };
 */
export interface SearchPlan {
  /** The FTS5 table of the index. */
  fts: string;
  /** The index's search field: the text the scorer reads. */
  field: string;
  /** The user's words, each quoted for FTS5 (see `searchPhrases`). */
  phrases: SearchPhrase[];
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
 * // { fts: "s_messages__search_body__…", field: "body", phrases: [{ match: '"hi"*', … }], eqs: [{ field: "channel", value: "ops" }] }
 */
export function planSearch(
  table: string,
  name: string,
  spec: SearchIndexSpec,
  define: (q: LooseSearchFilter) => unknown,
): SearchPlan {
  const misuse = (message: string) =>
    new SvcError("BAD_REQUEST", `withSearchIndex(${JSON.stringify(name)}): ${message}`);
  let phrases: SearchPhrase[] | undefined;
  const eqs: SearchPlan["eqs"] = [];
  const filter: LooseSearchFilter = {
    search(field, text) {
      if (phrases !== undefined) throw misuse("search() is called once");
      if (field !== spec.searchField)
        throw misuse(`search() is on ${spec.searchField}, got ${String(field)}`);
      phrases = searchPhrases(text);
      return filter;
    },
    eq(field, value) {
      if (phrases === undefined) throw misuse("search() must come before eq()");
      if (!spec.filterFields.includes(field))
        throw misuse(`${String(field)} is not a filter field of this index`);
      if (eqs.some((eq) => eq.field === field)) throw misuse(`two eq() on ${field}`);
      eqs.push({ field, value });
      return filter;
    },
  };
  if (typeof define !== "function") throw misuse("needs a callback that calls q.search()");
  define(filter);
  if (phrases === undefined) throw misuse("the callback must call q.search(field, text)");
  return { fts: ftsTableName(table, name, spec), field: spec.searchField, phrases, eqs };
}

/**
 * Most matching documents a search ranks: the newest ones the caller may
 * see (declarative RLS and filter fields apply first). Ranking and sorting
 * every match of a common word cost 680 ms for 90,000 matches here; this
 * bound brought it to ~30 ms (bench/scenarios/search.ts); hosted search
 * services bound their hits the same way.
 *
 * @example `ORDER BY rowid DESC LIMIT ${MAX_SEARCH_CANDIDATES}`
 */
export const MAX_SEARCH_CANDIDATES = 1_000;

/** One match a search ranks: its row, its sort tie-breaks and its search field's value. */
type Candidate = {
  rowid: number;
  created: number;
  id: string;
  words: SqlStorageValue;
};

/** The BM25 score of each candidate, in the candidates' order (see `bm25.ts`; lower is more relevant). */
function scoreCandidates(
  sql: SqlStorage,
  table: string,
  plan: SearchPlan,
  candidates: Candidate[],
): number[] {
  if (candidates.length === 0) return [];
  const { documents, averageLength } = indexTotals(sql, plan.fts);
  const phrases = plan.phrases
    .filter((phrase) => phrase.tokens.length > 0)
    .map((phrase) => ({
      ...phrase,
      idf: inverseDocumentFrequency(
        documents,
        phraseDocuments(sql, plan.fts, table, phrase.match, documents),
      ),
    }));
  return candidates.map(({ words }) => {
    // A number is indexed as its digits (json_extract hands FTS5 its text); anything else holds no words.
    const text = typeof words === "string" || typeof words === "number" ? String(words) : "";
    return bm25Score(searchTokens(text), phrases, averageLength);
  });
}

/**
 * `{ "<rowid>": rank, … }`: each candidate's place in relevance order (0
 * first), ties oldest first, then by id. Only the place reaches a page's
 * cursor, never the score: a word's weight counts every document of the
 * index, those a read policy hides from the caller included, so a score
 * told a caller who knows their own documents how many hidden ones hold a
 * word.
 */
function rankCandidates(
  sql: SqlStorage,
  table: string,
  plan: SearchPlan,
  candidates: Candidate[],
): Record<string, number> {
  const scores = scoreCandidates(sql, table, plan, candidates);
  const order = candidates.map((_, index) => index);
  order.sort((a, b) => {
    const left = candidates[a] as Candidate;
    const right = candidates[b] as Candidate;
    const byScore = (scores[a] as number) - (scores[b] as number);
    if (byScore !== 0) return byScore;
    if (left.created !== right.created) return left.created - right.created;
    return left.id < right.id ? -1 : left.id > right.id ? 1 : 0;
  });
  const ranks: Record<string, number> = {};
  order.forEach((index, rank) => {
    ranks[(candidates[index] as Candidate).rowid] = rank;
  });
  return ranks;
}

/**
 * The rows a search reads, as a subquery with the columns of a table row
 * plus `_rank` (the row's place in relevance order). It reads the newest
 * {@link MAX_SEARCH_CANDIDATES} matches that pass `where` (RLS and filter
 * equalities over the document row) right away, scores and ranks them in
 * JavaScript (FTS5's `bm25()` would count every document holding each word
 * first, which costs in proportion to the shard: see `phrase-documents.ts`),
 * and answers the candidates joined to their ranks; the outer query adds
 * the cursor and orders them by rank. The candidates are read and the
 * subquery runs in the same synchronous turn, so no write falls between.
 *
 * @example searchSource(sql, "messages", plan, [], []).sql // "(SELECT t._id AS _id, … FROM json_each(?) …)"
 */
export function searchSource(
  sql: SqlStorage,
  table: string,
  plan: SearchPlan,
  where: string[],
  whereBindings: SqlStorageValue[],
): { sql: string; bindings: SqlStorageValue[] } {
  const fts = `"${plan.fts}"`;
  const conditions = [`${fts} MATCH ?`, ...where].join(" AND ");
  const match = plan.phrases.map((phrase) => phrase.match).join(" ");
  const candidates = sql
    .exec<Candidate>(
      `SELECT t.rowid AS rowid, t._creationTime AS created, t._id AS id,` +
        ` json_extract(t._doc, '$.${plan.field}') AS words` +
        ` FROM ${fts} JOIN "t_${table}" AS t ON t.rowid = ${fts}.rowid WHERE ${conditions}` +
        ` ORDER BY ${fts}.rowid DESC LIMIT ${MAX_SEARCH_CANDIDATES}`,
      match,
      ...whereBindings,
    )
    .toArray();
  return {
    sql:
      `(SELECT t._id AS _id, t._creationTime AS _creationTime, t._doc AS _doc, s.value AS _rank` +
      ` FROM json_each(?) AS s JOIN "t_${table}" AS t ON t.rowid = CAST(s.key AS INTEGER))`,
    bindings: [JSON.stringify(rankCandidates(sql, table, plan, candidates))],
  };
}

/**
 * The sort key of a search: the row's place in relevance order, which
 * already holds the tie-breaks (oldest first, then the id).
 *
 * @example `ORDER BY ${SEARCH_KEYS.join(", ")}` // "ORDER BY _rank"
 */
export const SEARCH_KEYS: readonly string[] = Object.freeze(["_rank"]);

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
