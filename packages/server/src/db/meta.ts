/**
 * `_svc_meta`: svc's key-value facts about a shard, beside its documents
 * (names starting with `_svc` are reserved for svc). The shard writes
 * {@link SCHEMA_VERSION_KEY} when it applies its schema; the shard registry
 * reports it.
 */

/** The key under which a shard records the schema version it applied. */
export const SCHEMA_VERSION_KEY = "schema_version";

/** Creates `_svc_meta` (idempotent). */
export function createMetaTable(sql: SqlStorage): void {
  sql.exec("CREATE TABLE IF NOT EXISTS _svc_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
}

/**
 * Writes one `_svc_meta` value.
 *
 * @example writeMeta(ctx.storage.sql, SCHEMA_VERSION_KEY, "3f9a0c4e1b2d7a65")
 */
export function writeMeta(sql: SqlStorage, key: string, value: string): void {
  sql.exec(
    "INSERT INTO _svc_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    key,
    value,
  );
}

/**
 * Reads one `_svc_meta` value; `null` when unset (or before the table exists).
 *
 * @example readMeta(ctx.storage.sql, SCHEMA_VERSION_KEY) // "3f9a0c4e1b2d7a65"
 */
export function readMeta(sql: SqlStorage, key: string): string | null {
  const exists = sql
    .exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_svc_meta'")
    .toArray();
  if (exists.length === 0) return null;
  const row = sql
    .exec<{ value: string }>("SELECT value FROM _svc_meta WHERE key = ?", key)
    .toArray()[0];
  return row?.value ?? null;
}
