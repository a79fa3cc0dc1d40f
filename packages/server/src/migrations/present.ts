import type { PresentedDocument } from "../db/document-view.ts";
import { rowToDocument, type StoredRow } from "../db/storage.ts";
import type { AnyTableDefinition } from "../schema/define.ts";
import type { Migration, MigrationCtx } from "./define.ts";
import { checkMigrated, errorMessage, migrateOne } from "./outcome.ts";
import { type MigrationRecord, readMark } from "./store.ts";

/**
 * The migrations of a table not yet applied to `row`, in run order: those
 * whose runner has not reached it (stored at or before the boundary, after
 * the cursor, and not rewritten by the app since), and those that failed on
 * it in an earlier run.
 *
 * @example pendingFor(sql, active, records, row) // ["2026-11-28-title"]
 */
export function pendingFor(
  sql: SqlStorage,
  active: readonly { name: string }[],
  records: ReadonlyMap<string, MigrationRecord>,
  row: StoredRow,
): string[] {
  const pending: string[] = [];
  for (const { name } of active) {
    const record = records.get(name) as MigrationRecord;
    if (row._creationTime > record.boundary) continue;
    const { cursor } = record;
    const ahead =
      cursor === null ||
      row._creationTime > cursor.creationTime ||
      (row._creationTime === cursor.creationTime && row._id > cursor.id);
    if (ahead) {
      if (readMark(sql, name, row._id) !== "app") pending.push(name);
    } else if (record.failed > 0 && readMark(sql, name, row._id) === "failed") {
      pending.push(name);
    }
  }
  return pending;
}

/**
 * A row migrated in memory by its pending migrations, checked against the
 * table: what a handler sees of a document the runner has not reached. A
 * migration that deletes it, throws, or answers an invalid document leaves
 * nothing to show (`null`, logged with the id): a handler never gets a
 * document the schema rejects.
 */
export async function migrateInMemory(input: {
  table: AnyTableDefinition;
  tableName: string;
  row: StoredRow;
  migrations: readonly Migration[];
  names: readonly string[];
  ctx: MigrationCtx;
}): Promise<PresentedDocument | null> {
  const { row } = input;
  let doc = rowToDocument(row);
  try {
    for (const migration of input.migrations) {
      const step = await migrateOne(migration, input.ctx, doc);
      if (step.kind === "delete") return null;
      if (step.kind === "write")
        doc = { ...step.fields, _id: row._id, _creationTime: row._creationTime };
    }
    const { _id, _creationTime, ...fields } = doc;
    checkMigrated(input.tableName, input.table, fields);
    return { doc, pending: input.names };
  } catch (thrown) {
    console.error(
      `svc: ${row._id} cannot be shown: migration ${input.names.join(", ")} failed on it: ${errorMessage(thrown)}`,
    );
    return null;
  }
}
