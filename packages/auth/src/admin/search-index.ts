import type { SqlNames } from "./sql-names.ts";

/**
 * Name of the user search index: an FTS5 table with the trigram tokenizer
 * over each user's email, name, username and id. svc's migrations create it
 * (and the triggers that keep it current) with the rest of the auth schema.
 *
 * @example
 * ```ts
 * `SELECT rowid FROM "${USER_SEARCH_TABLE}" WHERE "${USER_SEARCH_TABLE}" MATCH ?`;
 * ```
 */
export const USER_SEARCH_TABLE = "svc_user_search";

/** Fewest characters the trigram tokenizer can find; shorter terms are scanned for. */
const TRIGRAM = 3;

/** The user fields the index covers, in its column order. */
const INDEXED_FIELDS = ["email", "name", "username", "id"] as const;

/**
 * The statements that create the user search index on a database that has
 * the user table: the table, its three triggers, and the fill from existing
 * users. Each text is exactly what SQLite keeps in `sqlite_master`, so
 * {@link pendingSearchIndexStatements} can tell a current index from a stale
 * one (a username column added since, a renamed field).
 *
 * Why this shape:
 * - Trigram tokens make any substring of three or more characters an index
 *   lookup (`person-0999` among a million users: 0.3 ms instead of a 110 ms
 *   scan), which no B-tree can do for *contains*.
 * - Contentless (`content=''`, with `contentless_delete=1` so rows can be
 *   replaced): the index stores tokens only, not a second copy of the text.
 * - Values are stored as they are and the tokenizer folds case (FTS5's
 *   Unicode case folding: `Émilie`, `ÉMILIE` and `émilie` are one token), as
 *   {@link foldedContains} does for the per-row test, so both plans agree.
 * - Rows are keyed by the user row's `rowid`, which the triggers carry over.
 *
 * @example
 * ```ts
 * const [table, ...triggers] = searchIndexStatements(names);
 * ```
 */
export function searchIndexStatements(names: SqlNames): string[] {
  const user = names.table("user");
  const index = `"${USER_SEARCH_TABLE}"`;
  const value = (row: "new" | "old", field: string) =>
    names.hasField("user", field) ? `${row}.${names.column("user", field)}` : "NULL";
  const columns = INDEXED_FIELDS.join(", ");
  const insert = `INSERT INTO ${index}(rowid, ${columns}) VALUES (new.rowid, ${INDEXED_FIELDS.map((field) => value("new", field)).join(", ")});`;
  const remove = `DELETE FROM ${index} WHERE rowid = old.rowid;`;
  const watched = INDEXED_FIELDS.filter((field) => names.hasField("user", field))
    .map((field) => names.column("user", field))
    .join(", ");
  return [
    `CREATE VIRTUAL TABLE ${index} USING fts5(${columns}, content='', contentless_delete=1, tokenize='trigram')`,
    `CREATE TRIGGER "${USER_SEARCH_TABLE}_insert" AFTER INSERT ON ${user} BEGIN ${insert} END`,
    `CREATE TRIGGER "${USER_SEARCH_TABLE}_update" AFTER UPDATE OF ${watched} ON ${user} BEGIN ${remove} ${insert} END`,
    `CREATE TRIGGER "${USER_SEARCH_TABLE}_delete" AFTER DELETE ON ${user} BEGIN ${remove} END`,
  ];
}

/** A row of `sqlite_master`: a table, trigger or index and its DDL. */
export interface SchemaObject {
  name: string;
  sql: string | null;
}

/**
 * What a database needs so its search index matches {@link
 * searchIndexStatements}, given the objects {@link searchIndexObjectsQuery}
 * lists: nothing when the table and triggers are there with the same text;
 * otherwise drop those that exist, create all four, and, when the user table
 * already exists, fill the index from it (one `INSERT … SELECT`: about 4 s
 * per million users in local SQLite). Run after the user table's own DDL,
 * in the same batch.
 *
 * @example
 * ```ts
 * const query = searchIndexObjectsQuery(names);
 * const existing = await db.prepare(query.sql).bind(...query.binds).all<SchemaObject>();
 * statements.push(...pendingSearchIndexStatements(names, existing.results));
 * ```
 */
export function pendingSearchIndexStatements(
  names: SqlNames,
  existing: readonly SchemaObject[],
): string[] {
  const wanted = searchIndexStatements(names);
  const userTable = unquote(names.table("user"));
  const objects = existing.filter((object) => object.name !== userTable);
  const have = new Set(objects.map((object) => object.sql));
  if (objects.length === wanted.length && wanted.every((sql) => have.has(sql))) return [];
  const drops = objects.map((object) =>
    object.name === USER_SEARCH_TABLE
      ? `DROP TABLE "${USER_SEARCH_TABLE}"`
      : `DROP TRIGGER "${object.name.replaceAll('"', '""')}"`,
  );
  const fill = existing.some((object) => object.name === userTable)
    ? [
        `INSERT INTO "${USER_SEARCH_TABLE}"(rowid, ${INDEXED_FIELDS.join(", ")}) SELECT rowid, ${INDEXED_FIELDS.map(
          (field) => (names.hasField("user", field) ? names.column("user", field) : "NULL"),
        ).join(", ")} FROM ${names.table("user")}`,
      ]
    : [];
  // Triggers first: dropping the table leaves triggers that name it behind.
  drops.sort((a, b) => Number(a.startsWith("DROP TABLE")) - Number(b.startsWith("DROP TABLE")));
  return [...drops, ...wanted, ...fill];
}

/**
 * The `sqlite_master` query for {@link pendingSearchIndexStatements}: the
 * index table, its triggers, and the user table (whose presence says whether
 * there are users to fill the index from).
 *
 * @example
 * ```ts
 * const { sql, binds } = searchIndexObjectsQuery(names);
 * ```
 */
export function searchIndexObjectsQuery(names: SqlNames): { sql: string; binds: string[] } {
  return {
    sql:
      "SELECT name, sql FROM sqlite_master WHERE name = ? OR (type = 'table' AND name = ?) " +
      "OR (type = 'trigger' AND name LIKE ? ESCAPE '\\')",
    binds: [
      USER_SEARCH_TABLE,
      unquote(names.table("user")),
      `${USER_SEARCH_TABLE.replaceAll("_", "\\_")}\\_%`,
    ],
  };
}

/** A quoted identifier's name (`"user"` → `user`). */
function unquote(identifier: string): string {
  return identifier.slice(1, -1).replaceAll('""', '"');
}

/**
 * The `MATCH` operand that finds `term` as a substring of any indexed field,
 * or `null` when the term is too short for trigrams (under three
 * characters), which the caller then scans for. The term is quoted as one
 * FTS5 phrase, so operators and quotes in it match literally; the tokenizer
 * folds its case as it folded the stored values'.
 *
 * @example
 * ```ts
 * searchIndexMatch("Émilie"); // "\"Émilie\""
 * searchIndexMatch("an"); // null
 * ```
 */
export function searchIndexMatch(term: string): string | null {
  if ([...term].length < TRIGRAM) return null;
  return phrase(term);
}

/** `text` quoted as one FTS5 phrase: operators and quotes in it match literally. */
function phrase(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/**
 * Each trigram of `term`: three characters (code points, as FTS5's trigram
 * tokenizer counts them) from each position. A search asks the index how
 * common each one is, and for the rarer ones alone (`users/search-matches.ts`).
 *
 * @example
 * ```ts
 * trigramsOf("ann@x"); // ["ann", "nn@", "n@x"]
 * ```
 */
export function trigramsOf(term: string): string[] {
  const chars = [...term];
  return chars
    .slice(0, Math.max(chars.length - TRIGRAM + 1, 0))
    .map((_, at) => chars.slice(at, at + TRIGRAM).join(""));
}
