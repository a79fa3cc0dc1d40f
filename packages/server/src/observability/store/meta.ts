/**
 * One number the store keeps about itself in `_svc_log_meta` (its size, the
 * console lines still to print), or `null` when it has none.
 *
 * @example meta(sql, "records") // 1204
 */
export function meta(sql: SqlStorage, key: string): number | null {
  const [row] = sql.exec("SELECT value FROM _svc_log_meta WHERE key = ?", key).toArray();
  return row === undefined ? null : Number(row.value);
}

/**
 * Sets one of the store's numbers in `_svc_log_meta`.
 *
 * @example setMeta(sql, "records", 1205);
 */
export function setMeta(sql: SqlStorage, key: string, value: number): void {
  sql.exec(
    "INSERT INTO _svc_log_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    key,
    value,
  );
}

/**
 * Forgets some of the store's numbers.
 *
 * @example clearMeta(sql, "console_from", "console_to");
 */
export function clearMeta(sql: SqlStorage, ...keys: string[]): void {
  for (const key of keys) sql.exec("DELETE FROM _svc_log_meta WHERE key = ?", key);
}
