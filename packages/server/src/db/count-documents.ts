import { sqlTable } from "./storage.ts";

/**
 * The number of documents in svc table `table` (a scan of its smallest
 * index). The registry's reports, backup imports and a shard's own export
 * count documents the same way, so they agree on every number.
 *
 * @example const documents = countDocuments(ctx.storage.sql, "messages");
 */
export function countDocuments(sql: SqlStorage, table: string): number {
  return sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM ${sqlTable(table)}`).one().n;
}
