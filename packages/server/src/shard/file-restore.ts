import { type BackupHeader, lineError, parseHeader } from "../backups/format.ts";
import type { NumberedLine } from "../backups/lines.ts";
import { SvcError } from "../errors/svc-error.ts";
import { type BackedUpFile, isFileLine, parseFileLine } from "../storage/backup-lines.ts";
import { putStreamHashed, type StoredBytes } from "../storage/put-stream.ts";
import { type FileRow, STORAGE_TABLE } from "../storage/table.ts";

/** Where a restore puts file bytes: the shard's bucket and the object key of an id. */
export interface FileRestoreTarget {
  /** The bucket, or `null` where none is bound (then a backup with bytes is refused). */
  bucket(): R2Bucket | null;
  key(storageId: string): string;
  /** A stored file's SHA-256, computed from its bytes where its upload recorded none (a backup's file line). */
  sha256Of(row: FileRow): Promise<string>;
}

interface Writing {
  id: string;
  offset: number;
  writer: WritableStreamDefaultWriter<Uint8Array>;
  done: Promise<StoredBytes>;
}

/**
 * The files of one restore (storage/backup-lines.ts has the format): takes the file
 * lines out of each batch, keeps the files' metadata until the commit, and
 * streams their bytes (when the backup has them) into R2 as they arrive,
 * one file at a time, checking each against its SHA-256. {@link prepare}
 * checks the header's counts; {@link insertRows} writes the metadata inside
 * the import's own transaction; {@link abort} removes bytes already written.
 *
 * @example
 * ```ts
 * importer.add(id, await files.take(lines));
 * await files.prepare();
 * importer.commit(id, key, () => files.insertRows(sql));
 * ```
 */
export class FileRestore {
  readonly #target: FileRestoreTarget;
  readonly #rows = new Map<string, BackedUpFile>();
  readonly #stored = new Set<string>();
  readonly #keys: string[] = [];
  #header: BackupHeader | undefined;
  #writing: Writing | null = null;

  constructor(target: FileRestoreTarget) {
    this.#target = target;
  }

  /** Takes the file lines out of `lines` (and reads the header); answers the rest, the documents. */
  async take(lines: readonly NumberedLine[]): Promise<NumberedLine[]> {
    const documents: NumberedLine[] = [];
    for (const line of lines) {
      if (line.number === 1) {
        this.#header = parseHeader(line.text);
        documents.push(line);
      } else if (isFileLine(line.text)) await this.#add(line);
      else documents.push(line);
    }
    return documents;
  }

  /** Checks that every file the header counts came, with all of its bytes when the backup has them. */
  async prepare(): Promise<void> {
    if (this.#writing !== null)
      throw this.#incomplete(`the bytes of file ${this.#writing.id} end early`);
    const expected = this.#header?.files ?? 0;
    if (expected !== this.#rows.size)
      throw this.#incomplete(
        `its header counts ${expected} files, the file holds ${this.#rows.size}`,
      );
    if (this.#header?.fileBytes !== true) return;
    for (const row of this.#rows.values()) {
      if (this.#stored.has(row.id)) continue;
      if (row.size > 0) throw this.#incomplete(`the bytes of file ${row.id} are missing`);
      await this.#putEmpty(row);
    }
  }

  /** Writes the files' metadata; call it inside the import's transaction. */
  insertRows(sql: SqlStorage): void {
    for (const row of this.#rows.values()) {
      sql.exec(
        `INSERT OR REPLACE INTO ${STORAGE_TABLE} (id, state, size, content_type, sha256, created_at, expires_at, uploader) VALUES (?, 'ready', ?, ?, ?, ?, NULL, ?)`,
        row.id,
        row.size,
        row.contentType,
        row.sha256,
        row.createdAt,
        row.uploader,
      );
    }
  }

  /** Stops a write under way and removes the bytes this restore stored (best effort). */
  async abort(): Promise<void> {
    const writing = this.#writing;
    this.#writing = null;
    if (writing !== null) {
      await writing.writer.abort(new Error("svc: the restore was abandoned")).catch(() => {});
      await writing.done.catch(() => {});
    }
    const bucket = this.#target.bucket();
    if (bucket !== null && this.#keys.length > 0) await bucket.delete(this.#keys).catch(() => {});
  }

  /** How many files the restore brought back. */
  get files(): number {
    return this.#rows.size;
  }

  #incomplete(what: string): SvcError {
    return new SvcError(
      "BAD_REQUEST",
      `The backup is incomplete or altered: ${what}. Nothing was imported.`,
    );
  }

  async #add(line: NumberedLine): Promise<void> {
    const parsed = parseFileLine(line.text);
    if (typeof parsed === "string") throw lineError(line.number, parsed);
    if (parsed.kind === "row") {
      if (this.#writing !== null)
        throw lineError(line.number, `the bytes of file ${this.#writing.id} end early`);
      if (this.#rows.has(parsed.row.id))
        throw lineError(line.number, `file ${parsed.row.id} appears twice in the backup`);
      this.#rows.set(parsed.row.id, parsed.row);
      return;
    }
    const row = this.#rows.get(parsed.id);
    if (row === undefined)
      throw lineError(line.number, `bytes of file ${parsed.id} come before its file line`);
    let writing = this.#writing;
    if (writing === null || writing.id !== parsed.id) {
      if (writing !== null || parsed.offset !== 0 || this.#stored.has(parsed.id))
        throw lineError(line.number, `the bytes of file ${parsed.id} are out of order`);
      writing = this.#start(parsed.id, row);
    }
    if (parsed.offset !== writing.offset || parsed.offset + parsed.data.byteLength > row.size)
      throw lineError(line.number, `the bytes of file ${parsed.id} are out of order`);
    await writing.writer.write(parsed.data);
    writing.offset += parsed.data.byteLength;
    if (writing.offset < row.size) return;
    await writing.writer.close();
    this.#writing = null;
    this.#finish(row, await writing.done, line.number);
  }

  #start(id: string, row: BackedUpFile): Writing {
    const bucket = this.#target.bucket();
    if (bucket === null)
      throw new SvcError(
        "BAD_REQUEST",
        "This backup holds file bytes, but the app binds no file storage bucket. Nothing was imported.",
      );
    const key = this.#target.key(id);
    this.#keys.push(key);
    const pipe = new TransformStream<Uint8Array, Uint8Array>();
    const done = putStreamHashed(bucket, key, pipe.readable, row.size, row.contentType);
    done.catch(() => {});
    this.#writing = { id, offset: 0, writer: pipe.writable.getWriter(), done };
    return this.#writing;
  }

  async #putEmpty(row: BackedUpFile): Promise<void> {
    const writing = this.#start(row.id, row);
    this.#writing = null;
    await writing.writer.close();
    this.#finish(row, await writing.done, null);
  }

  #finish(row: BackedUpFile, stored: StoredBytes, line: number | null): void {
    if (stored.sha256 !== row.sha256) {
      const what = `the bytes of file ${row.id} do not match its sha256`;
      throw line === null ? this.#incomplete(what) : lineError(line, what);
    }
    this.#stored.add(row.id);
  }
}
