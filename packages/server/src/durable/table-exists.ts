/**
 * Whether the object's SQLite has a table named `name`: for reads of svc's
 * own tables, which a shard creates only when first needed (an absent one
 * holds no rows, and reading it would be an error).
 *
 * @example if (!tableExists(sql, "_svc_meta")) return null;
 */
export function tableExists(sql: SqlStorage, name: string): boolean {
  return (
    sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", name).toArray()
      .length > 0
  );
}
