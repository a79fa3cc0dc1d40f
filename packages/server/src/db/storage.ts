import type { AnyTableDefinition, SchemaDefinition } from "../schema/define.ts";
import { parseJson, stringifyJson } from "../values/json-codec.ts";
import type { DeferredIndex } from "./deferred-index.ts";
import { applySearchIndexes, searchRowsAtStart } from "./search/fts-tables.ts";

/** The SQL table behind svc table `table`. */
export function sqlTable(table: string): string {
  return `"t_${table}"`;
}

/** The SQL expression of a document field (dot paths allowed). */
export function fieldExpression(field: string): string {
  if (field === "_creationTime" || field === "_id") return field;
  return `json_extract(_doc, '$.${field}')`;
}

/** The key columns of an index, in sort order: its fields, then `_creationTime`, then `_id`. */
export function indexKeys(fields: readonly string[]): string[] {
  return [...fields.map(fieldExpression), "_creationTime", "_id"];
}

/** A raw row of a table. */
export interface StoredRow {
  _id: string;
  _creationTime: number;
  _doc: string;
  [key: string]: SqlStorageValue;
}

/**
 * Turns a row into the document handlers see: its fields, then `_id` and
 * `_creationTime`, set on the freshly parsed object itself (no copy per read).
 *
 * @example
 * ```ts
 * rowToDocument({ _id: "rows_…", _creationTime: 1, _doc: '{"name":"a"}' }); // { name: "a", _id: "rows_…", _creationTime: 1 }
 * ```
 */
export function rowToDocument(
  row: StoredRow,
): Record<string, unknown> & { _id: string; _creationTime: number } {
  const fields = parseJson(row._doc) as Record<string, unknown>;
  if (fields === null || typeof fields !== "object" || Array.isArray(fields))
    return { ...fields, _id: row._id, _creationTime: row._creationTime };
  fields._id = row._id;
  fields._creationTime = row._creationTime;
  return fields as Record<string, unknown> & { _id: string; _creationTime: number };
}

/** The stored JSON of a document's own fields (system fields live in columns). */
export function documentToJson(fields: Record<string, unknown>): string {
  return stringifyJson(fields);
}

/**
 * A SQL value comparable with `json_extract` of the same document value:
 * booleans become 0/1, objects and arrays their JSON text.
 */
export function toSqlValue(value: unknown): SqlStorageValue {
  if (value === null || value === undefined) return null;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "string" || typeof value === "number") return value;
  return stringifyJson(value);
}

function indexName(table: string, name: string, fields: readonly string[]): string {
  // The field list is part of the name, so changing an index's fields rebuilds it.
  let hash = 0;
  for (const char of fields.join(",")) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) >>> 0;
  return `i_${table}__${name}__${hash.toString(36)}`;
}

/**
 * Rows up to which a new index is built at shard start, before any call is
 * served. SQLite builds an index in one statement; measured here, 0.3 s at
 * 100,000 documents and 1.8 s at 1,000,000 (bench/scenarios/index-build.ts),
 * well inside the 30 s a Durable Object may take to start.
 */
export const DEFAULT_INDEX_ROWS_AT_START = 1_000_000;

/**
 * Creates the tables, indexes and search indexes of `schema` and drops svc
 * indexes it no longer declares. Idempotent; runs once when a shard starts. A new index on
 * a table of more than `rowsAtStart` rows is not built here: it is answered
 * as deferred, for the shard to build after it started serving (queries that
 * name it give the same results meanwhile, without it).
 */
export function applySchema(
  sql: SqlStorage,
  schema: SchemaDefinition,
  rowsAtStart: number = DEFAULT_INDEX_ROWS_AT_START,
): DeferredIndex[] {
  const deferred: DeferredIndex[] = [];
  for (const [table, definition] of Object.entries(schema.tables)) {
    sql.exec(
      `CREATE TABLE IF NOT EXISTS ${sqlTable(table)} (_id TEXT PRIMARY KEY, _creationTime REAL NOT NULL, _doc TEXT NOT NULL)`,
    );
    const wanted = new Map<string, string>();
    wanted.set(indexName(table, "by_creation_time", []), indexKeys([]).join(", "));
    for (const [name, fields] of Object.entries((definition as AnyTableDefinition).indexes)) {
      wanted.set(indexName(table, name, fields), indexKeys(fields).join(", "));
    }
    const existing = sql
      .exec<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND name LIKE 'i\\_%' ESCAPE '\\'",
        `t_${table}`,
      )
      .toArray()
      .map((row) => row.name);
    for (const name of existing) if (!wanted.has(name)) sql.exec(`DROP INDEX "${name}"`);
    let rows: number | undefined;
    for (const [name, keys] of wanted) {
      if (existing.includes(name)) continue;
      const statement = `CREATE INDEX IF NOT EXISTS "${name}" ON ${sqlTable(table)} (${keys})`;
      rows ??= sql
        .exec<{ rows: number }>(`SELECT COUNT(*) AS rows FROM ${sqlTable(table)}`)
        .one().rows;
      if (rows > rowsAtStart) deferred.push({ table, sqlName: name, statement });
      else sql.exec(statement);
    }
    const { searchIndexes } = definition as AnyTableDefinition;
    deferred.push(...applySearchIndexes(sql, table, searchIndexes, searchRowsAtStart(rowsAtStart)));
  }
  return deferred;
}
