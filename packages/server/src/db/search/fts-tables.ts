import type { SearchIndexSpec } from "../../schema/search-index.ts";
import type { DeferredIndex } from "../deferred-index.ts";

/**
 * The tokenizer of every search index: Unicode 6.1 word boundaries, case
 * folded, diacritics removed (`café` finds `cafe` and the other way round),
 * including on letters whose decomposition has several marks (`2`).
 *
 * @example `CREATE VIRTUAL TABLE s USING fts5(words, tokenize='${SEARCH_TOKENIZER}')`
 */
export const SEARCH_TOKENIZER = "unicode61 remove_diacritics 2";

/**
 * The prefix lengths (in characters) each search index keeps a ready list
 * of documents for. The last word of a search is a prefix; without these,
 * FTS5 merges the lists of every word starting with it before reading the
 * first match, which costs in proportion to the shard (`w0`, in 90 % of a
 * million notes: 460 ms to find its newest 1,000 matches; with them, under
 * a millisecond, see docs/search.md). A longer prefix falls back to that
 * merge over the few words that start with it.
 *
 * @example `CREATE VIRTUAL TABLE s USING fts5(words, prefix='${SEARCH_PREFIXES}')`
 */
export const SEARCH_PREFIXES = "2 3 4";

/** The FTS5 options of every search index: what it stores and how it reads words. */
const FTS_OPTIONS = `content='', contentless_delete=1, tokenize='${SEARCH_TOKENIZER}', prefix='${SEARCH_PREFIXES}'`;

/**
 * The FTS5 table of a search index: `s_<table>__<name>__<hash>`. The hash
 * covers what the index holds (the search field and the FTS5 options:
 * tokenizer, prefix lengths), so changing either builds a new one; filter fields are read from the
 * document row at query time and change nothing here.
 *
 * @example ftsTableName("messages", "search_body", { searchField: "body", filterFields: [] })
 * // "s_messages__search_body__1x2y3z"
 */
export function ftsTableName(table: string, name: string, spec: SearchIndexSpec): string {
  let hash = 0;
  for (const char of `${spec.searchField}|${FTS_OPTIONS}`)
    hash = (Math.imul(hash, 31) + char.charCodeAt(0)) >>> 0;
  return `s_${table}__${name}__${hash.toString(36)}`;
}

/**
 * The statements that create and fill a search index, and the triggers that
 * keep it in step with its table. Triggers run inside the statement that
 * writes the document, so the index changes in the same transaction as the
 * document, whoever writes it (`ctx.db`, a migration, a restore, the studio).
 * The index is contentless (`content=''`): it stores the words, never a
 * second copy of the text; `contentless_delete=1` lets a trigger remove a
 * document by rowid without re-deriving its old words.
 */
function buildStatements(table: string, fts: string, spec: SearchIndexSpec): string {
  const source = `"t_${table}"`;
  const words = (row: "new" | "old") => `json_extract(${row}._doc, '$.${spec.searchField}')`;
  return [
    `CREATE VIRTUAL TABLE "${fts}" USING fts5(words, ${FTS_OPTIONS})`,
    `INSERT INTO "${fts}" (rowid, words) SELECT rowid, json_extract(_doc, '$.${spec.searchField}') FROM ${source}`,
    `CREATE TRIGGER "${fts}__ai" AFTER INSERT ON ${source} BEGIN INSERT INTO "${fts}" (rowid, words) VALUES (new.rowid, ${words("new")}); END`,
    `CREATE TRIGGER "${fts}__ad" AFTER DELETE ON ${source} BEGIN DELETE FROM "${fts}" WHERE rowid = old.rowid; END`,
    `CREATE TRIGGER "${fts}__au" AFTER UPDATE ON ${source} BEGIN DELETE FROM "${fts}" WHERE rowid = old.rowid; INSERT INTO "${fts}" (rowid, words) VALUES (new.rowid, ${words("new")}); END`,
  ].join(";\n");
}

/** The search index tables built for `table`: found by their insert trigger on it. */
function builtFtsTables(sql: SqlStorage, table: string): string[] {
  return sql
    .exec<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ? AND name LIKE 's\\_%\\_\\_ai' ESCAPE '\\'",
      `t_${table}`,
    )
    .toArray()
    .map((row) => row.name.slice(0, -"__ai".length));
}

/** Drops one search index: its triggers, then its FTS5 table (and with it FTS5's own tables). */
function dropFtsTable(sql: SqlStorage, fts: string): void {
  for (const suffix of ["ai", "ad", "au"]) sql.exec(`DROP TRIGGER IF EXISTS "${fts}__${suffix}"`);
  sql.exec(`DROP TABLE IF EXISTS "${fts}"`);
}

/**
 * Drops every search index built on `table`. A migration that drops a table
 * calls it first: an index's FTS5 tables are tables of their own, which a
 * `DROP TABLE` of the documents leaves behind, and once the table's
 * triggers are gone nothing would find them again.
 *
 * @example dropSearchIndexes(sql, "legacy"); sql.exec('DROP TABLE "t_legacy"');
 */
export function dropSearchIndexes(sql: SqlStorage, table: string): void {
  for (const fts of builtFtsTables(sql, table)) dropFtsTable(sql, fts);
}

/**
 * Rows up to which a new search index is built at shard start. Filling an
 * FTS5 index costs about ten times a `CREATE INDEX`: 3.1 s for 100,000
 * documents of ~200 characters (test/slow/search-build.test.ts) against
 * 0.3 s, so the bound is a tenth of the one for ordinary indexes, keeping a
 * start near 3 s (about 5 s since the prefix lists, {@link SEARCH_PREFIXES},
 * which add ~0.7× to filling); a bigger table gets its index from the alarm
 * after start.
 *
 * @example searchRowsAtStart(DEFAULT_INDEX_ROWS_AT_START) // 100_000
 */
export function searchRowsAtStart(indexRowsAtStart: number): number {
  return Math.floor(indexRowsAtStart / 10);
}

/**
 * Creates the search indexes `searchIndexes` declares for `table` and drops
 * the ones it no longer declares. One on a table of more than `rowsAtStart`
 * rows is answered as deferred instead (built later, in one step with its
 * triggers; searches that name it answer `UNAVAILABLE` meanwhile).
 *
 * @example
 * const deferred = applySearchIndexes(sql, "messages", schema.tables.messages.searchIndexes, 100_000);
 */
export function applySearchIndexes(
  sql: SqlStorage,
  table: string,
  searchIndexes: Record<string, SearchIndexSpec>,
  rowsAtStart: number,
): DeferredIndex[] {
  const wanted = new Map<string, SearchIndexSpec>();
  for (const [name, spec] of Object.entries(searchIndexes))
    wanted.set(ftsTableName(table, name, spec), spec);
  const existing = builtFtsTables(sql, table);
  for (const fts of existing) if (!wanted.has(fts)) dropFtsTable(sql, fts);
  const deferred: DeferredIndex[] = [];
  let rows: number | undefined;
  for (const [fts, spec] of wanted) {
    if (existing.includes(fts)) continue;
    // A build that was interrupted leaves no triggers: start it again from nothing.
    sql.exec(`DROP TABLE IF EXISTS "${fts}"`);
    const statement = buildStatements(table, fts, spec);
    rows ??= sql.exec<{ rows: number }>(`SELECT COUNT(*) AS rows FROM "t_${table}"`).one().rows;
    if (rows > rowsAtStart) deferred.push({ table, sqlName: fts, statement });
    else sql.exec(statement);
  }
  return deferred;
}
