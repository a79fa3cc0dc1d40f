import { countDocuments } from "../db/count-documents.ts";
import { readMeta } from "../durable/meta.ts";

/**
 * What a shard tells the registry about itself. Plain data (crosses JS RPC);
 * times are epoch milliseconds.
 */
export interface ShardReport {
  key: string;
  /** When the shard first ran (or, for data older than the registry, its oldest document). */
  createdAt: number;
  /** The last committed write this instance saw; `null` when it saw none (the registry keeps the last known). */
  lastWriteAt: number | null;
  /** Documents per app table (svc table name, without the `t_` prefix). */
  tables: Record<string, number>;
  /** The shard's SQLite database size. */
  sizeBytes: number;
  /** `_svc_meta.schema_version`, or `null` while the shard has none. */
  schemaVersion: string | null;
}

/**
 * The app tables stored in a shard (svc names, without the `t_` prefix),
 * including tables a later schema no longer declares: their rows are still
 * data.
 *
 * @example storedTables(ctx.storage.sql) // ["messages", "users"]
 */
export function storedTables(sql: SqlStorage): string[] {
  return sql
    .exec<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 't\\_%' ESCAPE '\\' ORDER BY name",
    )
    .toArray()
    .map((row) => row.name.slice(2));
}

/**
 * Builds a shard's report. `counts` holds the row counts of tables not
 * written since they were last counted; every other stored table is counted
 * now (and `counts` updated), so a report costs a scan of the written tables
 * only.
 */
export function buildReport(
  sql: SqlStorage,
  base: { key: string; createdAt: number; lastWriteAt: number | null },
  counts: Map<string, number>,
): ShardReport {
  const tables: Record<string, number> = {};
  for (const table of storedTables(sql)) {
    let rows = counts.get(table);
    if (rows === undefined) {
      rows = countDocuments(sql, table);
      counts.set(table, rows);
    }
    tables[table] = rows;
  }
  return {
    ...base,
    tables,
    sizeBytes: sql.databaseSize,
    schemaVersion: readMeta(sql, "schema_version"),
  };
}
