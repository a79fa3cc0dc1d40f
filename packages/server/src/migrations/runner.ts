import { dropSearchIndexes } from "../db/search/fts-tables.ts";
import { rowToDocument, type StoredRow, sqlTable } from "../db/storage.ts";
import type { AnyTableDefinition } from "../schema/define.ts";
import type { Migration, MigrationCtx } from "./define.ts";
import { checkMigrated, errorMessage, type MigrationStep, migrateOne } from "./outcome.ts";
import {
  clearMarks,
  type DocumentMark,
  type MigrationCursor,
  type MigrationRecord,
  saveRecord,
  writeMark,
} from "./store.ts";

/** What one batch of one migration needs from its shard. */
export interface BatchContext {
  sql: SqlStorage;
  storage: DurableObjectStorage;
  migration: Migration;
  /** The table's definition; `undefined` for a `drop` migration. */
  table: AnyTableDefinition | undefined;
  /** Check results against the schema (false while a later migration of the table is still to run). */
  validate: boolean;
  ctx: MigrationCtx;
  /** A batch stops taking documents after this long, so calls waiting on the shard get their turn. */
  maxBatchMs: number;
}

/** One document's fate in a batch. */
type Planned =
  | { row: StoredRow; step: MigrationStep }
  | { row: StoredRow; app: true }
  | { row: StoredRow; error: string };

/** A row of a migration's region, with its mark for that migration (`null`: none). */
export type RegionRow = StoredRow & { mark: DocumentMark | null };

/**
 * The next rows of a migration's region: stored at or before its boundary,
 * after its cursor, in `(_creationTime, _id)` order (the order of the index
 * every table has, so each batch is an index range, never a scan), each
 * with its mark for `migration` (one query, not one lookup per row).
 */
export function rowsAfter(
  sql: SqlStorage,
  migration: string,
  table: string,
  boundary: number,
  cursor: MigrationCursor | null,
  limit: number,
): RegionRow[] {
  // A row value, not `a > ? OR (a = ? AND b > ?)`: SQLite seeks the index to it, where the OR
  // form scanned from the start of the table on every batch (quadratic on big tables).
  const after = cursor === null ? "" : " AND (t._creationTime, t._id) > (?, ?)";
  const bindings: SqlStorageValue[] = cursor === null ? [] : [cursor.creationTime, cursor.id];
  return sql
    .exec<RegionRow>(
      `SELECT t._id, t._creationTime, t._doc, m.status AS mark FROM ${sqlTable(table)} AS t LEFT JOIN _svc_migration_docs AS m ON m.migration = ? AND m.id = t._id WHERE t._creationTime <= ?${after} ORDER BY t._creationTime, t._id LIMIT ?`,
      migration,
      boundary,
      ...bindings,
      limit,
    )
    .toArray();
}

/** Computes what `migrateOne` does to `row` (reads only; nothing is written). */
async function plan(context: BatchContext, row: StoredRow): Promise<Planned> {
  try {
    const step = await migrateOne(context.migration, context.ctx, rowToDocument(row), row._doc);
    if (context.validate && step.kind === "write" && context.table !== undefined) {
      checkMigrated(context.migration.table, context.table, step.fields);
    }
    return { row, step };
  } catch (thrown) {
    return { row, error: errorMessage(thrown) };
  }
}

function applyStep(sql: SqlStorage, table: string, id: string, step: MigrationStep): void {
  if (step.kind === "write") {
    sql.exec(`UPDATE ${sqlTable(table)} SET _doc = ? WHERE _id = ?`, step.json, id);
  } else if (step.kind === "delete") {
    sql.exec(`DELETE FROM ${sqlTable(table)} WHERE _id = ?`, id);
  }
}

/**
 * Runs one batch of a migration: plans up to `batchSize` documents (stopping
 * early after `maxBatchMs`), then writes them, the cursor and the counts in
 * one synchronous transaction, so an eviction leaves either the whole batch
 * or none of it. A document the app already rewrote in its new shape is
 * left alone. Answers the record as committed.
 */
export async function runBatch(
  context: BatchContext,
  record: MigrationRecord,
): Promise<MigrationRecord> {
  const { sql, migration } = context;
  const rows = rowsAfter(
    sql,
    record.name,
    migration.table,
    record.boundary,
    record.cursor,
    migration.batchSize,
  );
  if (rows.length === 0) return finish(context, record);
  const started = Date.now();
  const planned: Planned[] = [];
  for (const row of rows) {
    if (planned.length > 0 && Date.now() - started > context.maxBatchMs) break;
    if (!migration.drop && row.mark === "app") {
      planned.push({ row, app: true });
      continue;
    }
    const outcome = migration.drop
      ? { row, step: { kind: "delete" as const } }
      : await plan(context, row);
    planned.push(outcome);
    if ("error" in outcome && migration.onError === "stop") break;
  }
  return context.storage.transactionSync(() => {
    const next: MigrationRecord = { ...record };
    for (const entry of planned) {
      const { row } = entry;
      if ("error" in entry && migration.onError === "stop") {
        next.state = "stopped";
        next.error = { id: row._id, message: entry.error };
        break;
      }
      next.cursor = { creationTime: row._creationTime, id: row._id };
      next.scanned += 1;
      if ("app" in entry) next.writtenByApp += 1;
      else if ("error" in entry) {
        writeMark(sql, record.name, row._id, "failed", entry.error);
        next.failed += 1;
        next.error ??= { id: row._id, message: entry.error };
      } else {
        applyStep(sql, migration.table, row._id, entry.step);
        if (entry.step.kind === "write") next.changed += 1;
        else if (entry.step.kind === "delete") next.deleted += 1;
        else next.unchanged += 1;
      }
    }
    saveRecord(sql, next);
    return next;
  });
}

/** Ends a run whose region is exhausted: `done`, and a dropped table goes away. */
function finish(context: BatchContext, record: MigrationRecord): MigrationRecord {
  const { sql, migration } = context;
  return context.storage.transactionSync(() => {
    const next: MigrationRecord = { ...record, state: "done", finishedAt: Date.now() };
    clearMarks(sql, record.name, "app");
    if (migration.drop) {
      dropSearchIndexes(sql, migration.table);
      sql.exec(`DROP TABLE IF EXISTS ${sqlTable(migration.table)}`);
    }
    saveRecord(sql, next);
    return next;
  });
}

/**
 * Retries up to a batch of the documents that failed in an earlier run (after
 * `afterId`), once each: a success writes the document and forgets its mark,
 * a failure keeps it (and stops the run when `onError` is `"stop"`). Answers
 * the record and the last id tried (`null` when none were left).
 */
export async function retryFailed(
  context: BatchContext,
  record: MigrationRecord,
  afterId: string,
): Promise<{ record: MigrationRecord; lastId: string | null }> {
  const { sql, migration } = context;
  const marked = sql
    .exec<{ id: string }>(
      "SELECT id FROM _svc_migration_docs WHERE migration = ? AND status = 'failed' AND id > ? ORDER BY id LIMIT ?",
      record.name,
      afterId,
      migration.batchSize,
    )
    .toArray();
  if (marked.length === 0) return { record, lastId: null };
  const planned: (Planned | { id: string; gone: true })[] = [];
  for (const { id } of marked) {
    const row = sql
      .exec<StoredRow>(
        `SELECT _id, _creationTime, _doc FROM ${sqlTable(migration.table)} WHERE _id = ?`,
        id,
      )
      .toArray()[0];
    if (row === undefined) {
      planned.push({ id, gone: true });
      continue;
    }
    const outcome = await plan(context, row);
    planned.push(outcome);
    if ("error" in outcome && migration.onError === "stop") break;
  }
  const next = context.storage.transactionSync(() => {
    const updated: MigrationRecord = { ...record };
    for (const entry of planned) {
      if ("gone" in entry) {
        sql.exec(
          "DELETE FROM _svc_migration_docs WHERE migration = ? AND id = ?",
          record.name,
          entry.id,
        );
        updated.failed -= 1;
        continue;
      }
      const { row } = entry;
      if ("error" in entry) {
        writeMark(sql, record.name, row._id, "failed", entry.error);
        updated.error = { id: row._id, message: entry.error };
        if (migration.onError === "stop") {
          updated.state = "stopped";
          break;
        }
        continue;
      }
      if ("app" in entry) continue;
      applyStep(sql, migration.table, row._id, entry.step);
      sql.exec(
        "DELETE FROM _svc_migration_docs WHERE migration = ? AND id = ?",
        record.name,
        row._id,
      );
      updated.failed -= 1;
      if (entry.step.kind === "write") updated.changed += 1;
      else if (entry.step.kind === "delete") updated.deleted += 1;
      else updated.unchanged += 1;
    }
    if (updated.failed === 0 && updated.state !== "stopped") updated.error = null;
    saveRecord(sql, updated);
    return updated;
  });
  const last = planned.at(-1);
  const lastId = last === undefined ? null : "gone" in last ? last.id : last.row._id;
  return { record: next, lastId: next.state === "stopped" ? null : lastId };
}
