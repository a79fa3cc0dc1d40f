import { rowToDocument, type StoredRow, sqlTable } from "../db/storage.ts";
import { toJsonValue } from "../values/json-codec.ts";
import { checkMigrated, errorMessage, migrateOne } from "./outcome.ts";
import type { BatchContext } from "./runner.ts";
import { rowsAfter } from "./runner.ts";
import {
  type DocumentMark,
  failedDocuments,
  type MigrationError,
  type MigrationRecord,
} from "./store.ts";

/** One document before and after (`null`: it would be deleted), in the JSON transport encoding. */
export interface DryRunSample {
  id: string;
  before: unknown;
  after: unknown;
}

/** What a run would do in one shard, counted without writing anything. */
export interface DryRunReport {
  /** Documents still to migrate (the region after the cursor, plus earlier failures). */
  scanned: number;
  /** Documents a run would patch or replace. */
  wouldChange: number;
  wouldDelete: number;
  unchanged: number;
  /** Documents the app already rewrote in their new shape (a run leaves them alone). */
  writtenByApp: number;
  /** Documents whose migration throws or answers an invalid document. */
  failed: number;
  /** The first errors (at most 10), by document id. */
  errors: MigrationError[];
  /** The first documents a run would change, before and after. */
  samples: DryRunSample[];
}

const MAX_ERRORS = 10;
const CHUNK = 500;

/**
 * A dry run that found nothing to do: the start of every count, and the
 * answer for a migration a shard has already completed.
 *
 * @example emptyDryRunReport().scanned // 0
 */
export function emptyDryRunReport(): DryRunReport {
  return {
    scanned: 0,
    wouldChange: 0,
    wouldDelete: 0,
    unchanged: 0,
    writtenByApp: 0,
    failed: 0,
    errors: [],
    samples: [],
  };
}

/**
 * Walks what a run would still migrate, chunk by chunk (each chunk under the
 * shard's mutation lock, so no write lands halfway through it; calls get
 * their turn between chunks), computing every document's step without
 * writing. The counts are exactly what a run started now, with no writes in
 * between, would report.
 */
export async function dryRun(
  context: BatchContext,
  record: MigrationRecord,
  options: { samples: number; exclusive: <T>(task: () => Promise<T>) => Promise<T> },
): Promise<DryRunReport> {
  const report = emptyDryRunReport();
  const { sql, migration } = context;
  const consider = async (row: StoredRow, mark: DocumentMark | null) => {
    report.scanned += 1;
    if (!migration.drop && mark === "app") {
      report.writtenByApp += 1;
      return;
    }
    const before = rowToDocument(row);
    try {
      const step = await migrateOne(migration, context.ctx, before, row._doc);
      if (context.validate && step.kind === "write" && context.table !== undefined) {
        checkMigrated(migration.table, context.table, step.fields);
      }
      if (step.kind === "unchanged") {
        report.unchanged += 1;
        return;
      }
      if (step.kind === "delete") report.wouldDelete += 1;
      else report.wouldChange += 1;
      if (report.samples.length < options.samples) {
        report.samples.push({
          id: row._id,
          before: toJsonValue(before),
          after:
            step.kind === "delete"
              ? null
              : toJsonValue({ ...step.fields, _id: row._id, _creationTime: row._creationTime }),
        });
      }
    } catch (thrown) {
      report.failed += 1;
      if (report.errors.length < MAX_ERRORS)
        report.errors.push({ id: row._id, message: errorMessage(thrown) });
    }
  };
  if (!migration.drop && record.failed > 0) {
    for (const { id } of failedDocuments(sql, record.name, Number.MAX_SAFE_INTEGER)) {
      const row = sql
        .exec<StoredRow>(
          `SELECT _id, _creationTime, _doc FROM ${sqlTable(migration.table)} WHERE _id = ?`,
          id,
        )
        .toArray()[0];
      if (row !== undefined) await consider(row, "failed");
    }
  }
  let cursor = record.cursor;
  for (;;) {
    const done = await options.exclusive(async () => {
      const rows = rowsAfter(sql, record.name, migration.table, record.boundary, cursor, CHUNK);
      if (migration.drop) {
        report.scanned += rows.length;
        report.wouldDelete += rows.length;
      } else {
        for (const row of rows) await consider(row, row.mark);
      }
      const last = rows.at(-1);
      if (last !== undefined) cursor = { creationTime: last._creationTime, id: last._id };
      return rows.length < CHUNK;
    });
    if (done) return report;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}
