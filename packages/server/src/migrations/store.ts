/**
 * The shard's own record of its migrations, in SQLite beside the documents
 * (svc-owned names start with `_svc`): one `_svc_migrations` row per
 * migration, and `_svc_migration_docs` rows for documents the app rewrote
 * ahead of the runner or that failed to migrate. A batch's writes and the
 * row's cursor and counts commit in one transaction, so a restart resumes
 * exactly where the last committed batch ended.
 */

/** Where a migration stands in one shard. */
export type MigrationState = "registered" | "running" | "stopped" | "done";

/** Position of the runner: the last `(_creationTime, _id)` it committed. */
export interface MigrationCursor {
  creationTime: number;
  id: string;
}

/** Counts of one migration in one shard. */
export interface MigrationCounts {
  /** Documents the runner looked at. */
  scanned: number;
  /** Documents it rewrote (patched or replaced). */
  changed: number;
  deleted: number;
  /** Documents `migrateOne` left as they were. */
  unchanged: number;
  /** Documents the app wrote (in their new shape) before the runner reached them: left alone. */
  writtenByApp: number;
  /** Documents whose migration threw or answered an invalid document (skipped, or the one that stopped the run). */
  failed: number;
}

/** The first error of a run: which document, and what went wrong. */
export interface MigrationError {
  id: string;
  message: string;
}

/** One `_svc_migrations` row. */
export interface MigrationRecord extends MigrationCounts {
  name: string;
  table: string;
  state: MigrationState;
  /** Documents created at or before this time were stored before the migration existed. */
  boundary: number;
  cursor: MigrationCursor | null;
  error: MigrationError | null;
  registeredAt: number;
  startedAt: number | null;
  finishedAt: number | null;
}

const COUNT_COLUMNS = [
  "scanned",
  "changed",
  "deleted",
  "unchanged",
  "writtenByApp",
  "failed",
] as const;

/** Creates svc's own tables in a shard (idempotent). */
export function createMigrationTables(sql: SqlStorage): void {
  sql.exec(`CREATE TABLE IF NOT EXISTS _svc_migrations (
    name TEXT PRIMARY KEY, tbl TEXT NOT NULL, state TEXT NOT NULL, boundary REAL NOT NULL,
    cursorTime REAL, cursorId TEXT,
    ${COUNT_COLUMNS.map((column) => `${column} INTEGER NOT NULL DEFAULT 0`).join(", ")},
    error TEXT, registeredAt REAL NOT NULL, startedAt REAL, finishedAt REAL)`);
  sql.exec(`CREATE TABLE IF NOT EXISTS _svc_migration_docs (
    migration TEXT NOT NULL, id TEXT NOT NULL, status TEXT NOT NULL, error TEXT,
    PRIMARY KEY (migration, id))`);
}

interface RecordRow {
  name: string;
  tbl: string;
  state: string;
  boundary: number;
  cursorTime: number | null;
  cursorId: string | null;
  error: string | null;
  registeredAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  [count: string]: SqlStorageValue;
}

function toRecord(row: RecordRow): MigrationRecord {
  const counts = Object.fromEntries(
    COUNT_COLUMNS.map((column) => [column, Number(row[column])]),
  ) as unknown as MigrationCounts;
  return {
    name: row.name,
    table: row.tbl,
    state: row.state as MigrationState,
    boundary: row.boundary,
    cursor:
      row.cursorTime === null || row.cursorId === null
        ? null
        : { creationTime: row.cursorTime, id: row.cursorId },
    ...counts,
    error: row.error === null ? null : (JSON.parse(row.error) as MigrationError),
    registeredAt: row.registeredAt,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
  };
}

/** Every migration this shard knows, by name. */
export function readRecords(sql: SqlStorage): MigrationRecord[] {
  return sql.exec<RecordRow>("SELECT * FROM _svc_migrations ORDER BY name").toArray().map(toRecord);
}

/** Adds a migration's row (state `registered`, or `done` when nothing predates it). */
export function insertRecord(sql: SqlStorage, record: MigrationRecord): void {
  sql.exec(
    "INSERT INTO _svc_migrations (name, tbl, state, boundary, registeredAt, finishedAt) VALUES (?, ?, ?, ?, ?, ?)",
    record.name,
    record.table,
    record.state,
    record.boundary,
    record.registeredAt,
    record.finishedAt,
  );
}

/** Saves a migration's state, cursor, counts and error (inside the batch's transaction). */
export function saveRecord(sql: SqlStorage, record: MigrationRecord): void {
  sql.exec(
    `UPDATE _svc_migrations SET state = ?, cursorTime = ?, cursorId = ?, ${COUNT_COLUMNS.map((c) => `${c} = ?`).join(", ")}, error = ?, startedAt = ?, finishedAt = ? WHERE name = ?`,
    record.state,
    record.cursor?.creationTime ?? null,
    record.cursor?.id ?? null,
    ...COUNT_COLUMNS.map((column) => record[column]),
    record.error === null ? null : JSON.stringify(record.error),
    record.startedAt,
    record.finishedAt,
    record.name,
  );
}

/** How a document is marked for a migration: rewritten by the app, or failed to migrate. */
export type DocumentMark = "app" | "failed";

/** The mark of one document for one migration, if any. */
export function readMark(sql: SqlStorage, migration: string, id: string): DocumentMark | null {
  const row = sql
    .exec<{ status: string }>(
      "SELECT status FROM _svc_migration_docs WHERE migration = ? AND id = ?",
      migration,
      id,
    )
    .toArray()[0];
  return (row?.status as DocumentMark | undefined) ?? null;
}

/** Marks a document for a migration (replacing an earlier mark). */
export function writeMark(
  sql: SqlStorage,
  migration: string,
  id: string,
  mark: DocumentMark,
  error: string | null = null,
): void {
  sql.exec(
    "INSERT OR REPLACE INTO _svc_migration_docs (migration, id, status, error) VALUES (?, ?, ?, ?)",
    migration,
    id,
    mark,
    error,
  );
}

/** Ids of the documents that failed to migrate (retried by the next run), with their errors. */
export function failedDocuments(
  sql: SqlStorage,
  migration: string,
  limit: number,
): MigrationError[] {
  return sql
    .exec<{ id: string; error: string | null }>(
      "SELECT id, error FROM _svc_migration_docs WHERE migration = ? AND status = 'failed' ORDER BY id LIMIT ?",
      migration,
      limit,
    )
    .toArray()
    .map((row) => ({ id: row.id, message: row.error ?? "" }));
}

/** Forgets the marks of a migration (once nothing is left pending). */
export function clearMarks(sql: SqlStorage, migration: string, mark: DocumentMark): void {
  sql.exec("DELETE FROM _svc_migration_docs WHERE migration = ? AND status = ?", migration, mark);
}
