import { tableExists } from "./table-exists.ts";

/**
 * `_svc_meta`: svc's small key/value table inside every shard (names starting
 * with `_svc` are reserved for svc). Holds, among others, `schema_version`
 * (the schema the shard applied), `created_at` (when the shard first ran,
 * epoch milliseconds) and `registry_due` (when the shard owes the registry a
 * report).
 */
export const META_TABLE = "_svc_meta";

/** Creates `_svc_meta` when absent. Cheap; call before the first read of an instance. */
export function ensureMetaTable(sql: SqlStorage): void {
  sql.exec(`CREATE TABLE IF NOT EXISTS ${META_TABLE} (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
}

/**
 * One value of `_svc_meta`, or `null` when unset (or the table does not exist yet).
 *
 * @example readMeta(ctx.storage.sql, "schema_version") // "3f2a…" or null
 */
export function readMeta(sql: SqlStorage, key: string): string | null {
  if (!tableExists(sql, META_TABLE)) return null;
  const rows = sql
    .exec<{ value: string }>(`SELECT value FROM ${META_TABLE} WHERE key = ?`, key)
    .toArray();
  return rows[0]?.value ?? null;
}

/** Sets one value of `_svc_meta` (creating the table when needed). */
export function writeMeta(sql: SqlStorage, key: string, value: string): void {
  ensureMetaTable(sql);
  sql.exec(
    `INSERT INTO ${META_TABLE} (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
    key,
    value,
  );
}

/** Removes one value of `_svc_meta`. */
export function deleteMeta(sql: SqlStorage, key: string): void {
  ensureMetaTable(sql);
  sql.exec(`DELETE FROM ${META_TABLE} WHERE key = ?`, key);
}
