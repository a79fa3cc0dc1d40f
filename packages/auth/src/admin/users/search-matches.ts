import type { AdminEnvironment } from "../environment.ts";
import { trigramsOf, USER_SEARCH_TABLE } from "../search-index.ts";
import type { SearchFilter, Sql } from "./list-filters.ts";

/** How many of the oldest users each trigram of a search is looked for among, to tell how common it is. */
const SAMPLE_USERS = 1_000;

/** A trigram found in more than this share of the sampled users is common (left out of the index lookup). */
const COMMON_SHARE = 0.1;

/**
 * A search's matches: how many (up to the bound asked for) and, when all
 * were counted, their row ids. With `verify`, these are the index's
 * candidates, a superset of the matches (`count` an upper bound): a row is a
 * match when it also passes `verify`, the per-row test of the whole term.
 */
export interface SearchMatches {
  count: number;
  /** A JSON array of the row ids when fewer than the bound, else `null`. */
  ids: string | null;
  verify: Sql | null;
}

/**
 * A search's matches in the search index, counted no further than `upTo`,
 * with their row ids (a JSON array) when all were counted (fewer than
 * `upTo`), else `ids: null`: one pass over the index serves the count, the
 * page and the test of every other filter.
 *
 * Trigrams nearly every user has ("son" and "on " of "Person 4321" among a
 * million "Person …" names) make FTS5's phrase lookup seek through lists of
 * a million rows for each candidate: 40 ms on D1 for a name 200 users share.
 * So, in the same statement, each distinct trigram of the term is first
 * looked for among the {@link SAMPLE_USERS} oldest users (at most that many
 * index entries read per trigram); when some but not all are common, the
 * index is asked for the pieces of the term the others spell (`" 4321"`,
 * pieces joined by `AND`), and the rows it finds, a superset, are tested
 * against the whole term by the per-row test. A census of the newest users
 * would need their row ids first; the oldest are where SQLite starts. `alone` (no other
 * filter) tests them right there; otherwise the candidates come back with
 * `verify`, which the caller tests after the other filters have narrowed
 * them (a name search with `role=admin` tests the admins among them), unless
 * there were `upTo` or more, which are then tested here. A term the row test
 * cannot fold (more than three letters outside ASCII), or of one trigram, is
 * looked up whole.
 *
 * @example
 * ```ts
 * const { count, ids, verify } = await searchMatches(environment, search, 10_001, true);
 * ```
 */
export async function searchMatches(
  environment: AdminEnvironment,
  search: SearchFilter & { match: string },
  upTo: number,
  alone: boolean,
): Promise<SearchMatches> {
  const { db, names } = environment;
  const index = `"${USER_SEARCH_TABLE}"`;
  const trigrams = trigramsOf(search.term);
  const test = search.rowTest;
  if (test === null || trigrams.length < 2) {
    const found = await db
      .prepare(
        `${COUNT_IDS} FROM (SELECT rowid AS id FROM ${index} WHERE ${index} MATCH ? LIMIT ?)`,
      )
      .bind(upTo, search.match, upTo)
      .first<{ total: number; ids: string | null }>();
    return { count: Number(found?.total ?? 0), ids: found?.ids ?? null, verify: null };
  }
  const user = names.table("user");
  const lookup =
    "WITH grams(at, gram) AS (SELECT key, value FROM json_each(?)), " +
    // Each distinct trigram counted once (a term may repeat one).
    `common_grams(gram) AS MATERIALIZED (SELECT gram FROM (SELECT DISTINCT gram FROM grams) g WHERE (SELECT COUNT(*) ` +
    `FROM (SELECT rowid FROM ${index} WHERE ${index} MATCH '"' || replace(g.gram, '"', '""') || '"' ORDER BY rowid ` +
    `LIMIT ?) WHERE rowid < (SELECT MIN(rowid) FROM ${user}) + ?) > ?), ` +
    "common(at) AS MATERIALIZED (SELECT at FROM grams WHERE gram IN (SELECT gram FROM common_grams)), " +
    "kept(at) AS MATERIALIZED (SELECT at FROM grams WHERE at NOT IN (SELECT at FROM common)), " +
    // Each run of kept trigrams is the piece of the term they spell, quoted as a phrase.
    `runs(phrase) AS (SELECT '"' || replace(substr(?, s.at + 1, (SELECT MIN(e.at) FROM kept e ` +
    `WHERE e.at >= s.at AND e.at + 1 NOT IN (SELECT at FROM kept)) - s.at + 3), '"', '""') || '"' ` +
    "FROM kept s WHERE s.at - 1 NOT IN (SELECT at FROM kept)), " +
    "lookup(operand, narrowed) AS MATERIALIZED (SELECT CASE WHEN narrowed THEN " +
    "(SELECT group_concat(phrase, ' AND ') FROM runs) ELSE ? END, narrowed FROM (SELECT " +
    "(SELECT COUNT(*) FROM common) NOT IN (0, (SELECT COUNT(*) FROM grams)) AS narrowed)) ";
  const lookupBinds = [
    JSON.stringify(trigrams),
    SAMPLE_USERS,
    SAMPLE_USERS,
    SAMPLE_USERS * COMMON_SHARE,
    search.term,
    search.match,
  ];
  const found = await db
    .prepare(
      `${lookup}${COUNT_IDS}, (SELECT narrowed FROM lookup) AS narrowed, (SELECT operand FROM lookup) AS operand FROM ` +
        (alone
          ? `(SELECT rowid AS id FROM ${index} WHERE ${index} MATCH (SELECT operand FROM lookup) AND ` +
            `(NOT (SELECT narrowed FROM lookup) OR EXISTS (SELECT 1 FROM ${user} u WHERE u.rowid = ${index}.rowid AND ${test.sql})) LIMIT ?)`
          : `(SELECT rowid AS id FROM ${index} WHERE ${index} MATCH (SELECT operand FROM lookup) LIMIT ?)`),
    )
    .bind(...lookupBinds, upTo, ...(alone ? test.binds : []), upTo)
    .first<{ total: number; ids: string | null; narrowed: number; operand: string }>();
  const matches = { count: Number(found?.total ?? 0), ids: found?.ids ?? null };
  if (alone || !found?.narrowed) return { ...matches, verify: null };
  if (matches.ids !== null) return { ...matches, verify: test };
  // As many candidates as the bound: how many of them match decides the plan and the total.
  const tested = await db
    .prepare(
      `${COUNT_IDS} FROM (SELECT u.rowid AS id FROM ${user} u WHERE u.rowid IN (SELECT rowid FROM ${index} ` +
        `WHERE ${index} MATCH ?) AND ${test.sql} LIMIT ?)`,
    )
    .bind(upTo, found.operand, ...test.binds, upTo)
    .first<{ total: number; ids: string | null }>();
  return { count: Number(tested?.total ?? 0), ids: tested?.ids ?? null, verify: null };
}

/** Counts the rows `id` of a subquery and lists them when fewer than the first bound value. */
const COUNT_IDS =
  "SELECT COUNT(*) AS total, CASE WHEN COUNT(*) < ? THEN json_group_array(id) END AS ids";
