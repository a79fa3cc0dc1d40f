/**
 * The shard's file metadata: the system table `_svc_storage`, beside the
 * documents that reference the files, so one transaction covers a mutation,
 * the upload URLs it issues and the files it deletes.
 *
 * A row goes `pending` (upload URL issued) → `uploading` (the URL was used;
 * it never can be again) → `ready` (bytes in R2) → `deleted` (bytes being
 * removed after the deleting transaction committed).
 */
export const STORAGE_TABLE = "_svc_storage";

/** Where a file is in its life (see {@link STORAGE_TABLE}). */
export type FileState = "pending" | "uploading" | "ready" | "deleted";

/** A row of `_svc_storage`. */
export interface FileRow extends Record<string, SqlStorageValue> {
  id: string;
  state: FileState;
  size: number | null;
  content_type: string | null;
  sha256: string | null;
  /** Epoch ms: when the URL was issued, then when the bytes were stored. */
  created_at: number;
  /** Epoch ms the upload URL expires (pending and uploading rows). */
  expires_at: number | null;
  /** The user who was issued the upload URL (or stored the file), if any. */
  uploader: string | null;
}

/** What is known of a stored file. */
export interface FileMetadata {
  storageId: string;
  /** Bytes. */
  size: number;
  /** As the uploader declared it (the `Content-Type` of the upload). */
  contentType: string;
  /** SHA-256 of the bytes, lower-case hex. */
  sha256: string;
  /** Epoch ms the bytes were stored. */
  createdAt: number;
}

/**
 * Creates `_svc_storage` when missing. Idempotent; the shard runs it at start
 * and after its data was deleted.
 *
 * @example ensureStorageTable(ctx.storage.sql);
 */
export function ensureStorageTable(sql: SqlStorage): void {
  sql.exec(
    `CREATE TABLE IF NOT EXISTS ${STORAGE_TABLE} (id TEXT PRIMARY KEY, state TEXT NOT NULL, size INTEGER, content_type TEXT, sha256 TEXT, created_at INTEGER NOT NULL, expires_at INTEGER, uploader TEXT)`,
  );
  sql.exec(
    `CREATE INDEX IF NOT EXISTS ${STORAGE_TABLE}_by_state ON ${STORAGE_TABLE} (state, created_at)`,
  );
  // What {@link deletedFiles} reads after every commit that touched files: the expired uploads
  // alone, not every URL issued and not yet used (read row by row, they cost 0.6 ms a commit
  // at 1,000 such URLs, growing with each one).
  sql.exec(
    `CREATE INDEX IF NOT EXISTS ${STORAGE_TABLE}_by_expiry ON ${STORAGE_TABLE} (state, expires_at)`,
  );
}

/**
 * The file's row, whatever its state.
 *
 * @example const row = fileRow(sql, id); if (row?.state === "ready") …
 */
export function fileRow(sql: SqlStorage, id: string): FileRow | null {
  return sql.exec<FileRow>(`SELECT * FROM ${STORAGE_TABLE} WHERE id = ?`, id).toArray()[0] ?? null;
}

/**
 * The metadata of a `ready` row, with its SHA-256 (which an upload's row
 * only gets on first need: `FileStore.sha256Of`).
 *
 * @example metadataOf(row, await files.sha256Of(row)).sha256
 */
export function metadataOf(row: FileRow, sha256: string): FileMetadata {
  return {
    storageId: row.id,
    size: row.size ?? 0,
    contentType: row.content_type ?? "application/octet-stream",
    sha256,
    createdAt: row.created_at,
  };
}

/**
 * Records an issued upload URL: the id its file will get, and until when.
 *
 * @example insertPending(sql, { id, now, expiresAt, uploader: ctx.auth.userId });
 */
export function insertPending(
  sql: SqlStorage,
  row: { id: string; now: number; expiresAt: number; uploader: string | null },
): void {
  sql.exec(
    `INSERT INTO ${STORAGE_TABLE} (id, state, created_at, expires_at, uploader) VALUES (?, 'pending', ?, ?, ?)`,
    row.id,
    row.now,
    row.expiresAt,
    row.uploader,
  );
}

/**
 * Takes an issued upload for its one use: `pending` becomes `uploading`.
 * Answers `false` when it was used before or never issued (its mutation
 * rolled back), so a URL cannot store twice.
 *
 * @example if (!claimUpload(sql, id)) throw new SvcError("CONFLICT", "used");
 */
export function claimUpload(sql: SqlStorage, id: string): boolean {
  const cursor = sql.exec(
    `UPDATE ${STORAGE_TABLE} SET state = 'uploading' WHERE id = ? AND state = 'pending'`,
    id,
  );
  return cursor.rowsWritten > 0;
}

/**
 * Records stored bytes: an `uploading` row becomes `ready` (an upload), or a
 * new `ready` row is written (`ctx.storage.store`).
 *
 * @example markReady(sql, { id, now, size, contentType, sha256, uploader });
 */
export function markReady(
  sql: SqlStorage,
  file: {
    id: string;
    now: number;
    size: number;
    contentType: string;
    sha256: string | null;
    uploader: string | null;
  },
): void {
  sql.exec(
    `INSERT INTO ${STORAGE_TABLE} (id, state, size, content_type, sha256, created_at, expires_at, uploader)
     VALUES (?, 'ready', ?, ?, ?, ?, NULL, ?)
     ON CONFLICT (id) DO UPDATE SET state = 'ready', size = excluded.size, content_type = excluded.content_type,
       sha256 = excluded.sha256, created_at = excluded.created_at, expires_at = NULL`,
    file.id,
    file.size,
    file.contentType,
    file.sha256,
    file.now,
    file.uploader,
  );
}

/**
 * Records the SHA-256 computed for a file stored without one (an upload);
 * a row that has one keeps it.
 *
 * @example recordSha256(sql, id, await digestObject(bucket, key));
 */
export function recordSha256(sql: SqlStorage, id: string, sha256: string): void {
  sql.exec(`UPDATE ${STORAGE_TABLE} SET sha256 = ? WHERE id = ? AND sha256 IS NULL`, sha256, id);
}

/**
 * Marks a file for deletion; its bytes and row go once the transaction that
 * did it commits ({@link deletedFiles}). Answers whether there was a file.
 *
 * @example markDeleted(sql, id);
 */
export function markDeleted(sql: SqlStorage, id: string): boolean {
  return (
    sql.exec(
      `UPDATE ${STORAGE_TABLE} SET state = 'deleted' WHERE id = ? AND state != 'deleted'`,
      id,
    ).rowsWritten > 0
  );
}

/**
 * Ids of files whose bytes are to be removed: deleted ones, and uploads whose
 * URL expired `graceMs` ago without the bytes being recorded.
 *
 * @example for (const id of deletedFiles(sql, now, 60_000, 100)) …
 */
export function deletedFiles(
  sql: SqlStorage,
  now: number,
  graceMs: number,
  limit: number,
): string[] {
  return sql
    .exec<{ id: string }>(
      `SELECT id FROM ${STORAGE_TABLE} WHERE state = 'deleted' OR (state IN ('pending', 'uploading') AND expires_at < ?) LIMIT ?`,
      now - graceMs,
      limit,
    )
    .toArray()
    .map((row) => row.id);
}

/**
 * Ready files stored before `before`, oldest first, after the cursor
 * `after` (the last one of the previous page): the candidates for
 * collection when no document references them.
 *
 * @example oldReadyFiles(sql, Date.now() - unreferencedMs, null, 100)
 */
export function oldReadyFiles(
  sql: SqlStorage,
  before: number,
  after: { createdAt: number; id: string } | null,
  limit: number,
): { id: string; createdAt: number }[] {
  return sql
    .exec<{ id: string; created_at: number }>(
      `SELECT id, created_at FROM ${STORAGE_TABLE} WHERE state = 'ready' AND created_at < ? AND (created_at, id) > (?, ?) ORDER BY created_at, id LIMIT ?`,
      before,
      after?.createdAt ?? -1,
      after?.id ?? "",
      limit,
    )
    .toArray()
    .map((row) => ({ id: row.id, createdAt: row.created_at }));
}

/**
 * Removes a row for good (its bytes are gone).
 *
 * @example forgetFile(sql, id);
 */
export function forgetFile(sql: SqlStorage, id: string): void {
  sql.exec(`DELETE FROM ${STORAGE_TABLE} WHERE id = ?`, id);
}

/**
 * A page of every row, oldest first, after the cursor row: what the
 * operator's list shows.
 *
 * @example listFileRows(sql, null, 50)
 */
export function listFileRows(
  sql: SqlStorage,
  after: { createdAt: number; id: string } | null,
  limit: number,
): FileRow[] {
  return sql
    .exec<FileRow>(
      `SELECT * FROM ${STORAGE_TABLE} WHERE (created_at, id) > (?, ?) ORDER BY created_at, id LIMIT ?`,
      after?.createdAt ?? -1,
      after?.id ?? "",
      limit,
    )
    .toArray();
}

/**
 * Records an upload that needs no URL (the operator's): an `uploading`
 * row, expiring like an upload URL would.
 *
 * @example insertUploading(sql, { id, now, expiresAt });
 */
export function insertUploading(
  sql: SqlStorage,
  row: { id: string; now: number; expiresAt: number },
): void {
  sql.exec(
    `INSERT INTO ${STORAGE_TABLE} (id, state, created_at, expires_at, uploader) VALUES (?, 'uploading', ?, ?, NULL)`,
    row.id,
    row.now,
    row.expiresAt,
  );
}
