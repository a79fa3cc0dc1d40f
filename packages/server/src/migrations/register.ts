import { sqlTable } from "../db/storage.ts";
import { tableExists } from "../durable/table-exists.ts";
import type { Migration } from "./define.ts";
import type { MigrationRecord } from "./store.ts";

/**
 * The record of a migration a shard meets for the first time (at its start
 * with the code that declares it): its boundary is the latest creation time
 * stored in the table, so every document stored until now is to migrate and
 * every document the new code writes (later, in the new shape) never is. A
 * table with nothing stored has nothing to migrate: the record starts `done`.
 *
 * @example insertRecord(sql, newRecord(sql, "2026-11-28-title", migration));
 */
export function newRecord(sql: SqlStorage, name: string, migration: Migration): MigrationRecord {
  const exists = tableExists(sql, `t_${migration.table}`);
  const latest = exists
    ? sql
        .exec<{ latest: number | null }>(
          `SELECT MAX(_creationTime) AS latest FROM ${sqlTable(migration.table)}`,
        )
        .one().latest
    : null;
  const now = Date.now();
  // Nothing stored yet (or no table to drop): nothing to migrate, ever.
  const empty = latest === null && !(migration.drop && exists);
  return {
    name,
    table: migration.table,
    state: empty ? "done" : "registered",
    boundary: latest ?? 0,
    cursor: null,
    scanned: 0,
    changed: 0,
    deleted: 0,
    unchanged: 0,
    writtenByApp: 0,
    failed: 0,
    error: null,
    registeredAt: now,
    startedAt: null,
    finishedAt: empty ? now : null,
  };
}
