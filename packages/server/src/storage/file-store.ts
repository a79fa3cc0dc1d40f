import { bucketOf } from "../backups/r2.ts";
import { SvcError } from "../errors/svc-error.ts";
import type { SchemaDefinition } from "../schema/define.ts";
import { usedUrl } from "./limits.ts";
import { missingBytes } from "./missing-bytes.ts";
import { type ResolvedStorageOptions, storageBucket, storageSecret } from "./options.ts";
import { objectKey } from "./paths.ts";
import { digestObject, type StoredBytes } from "./put-stream.ts";
import { type ReferenceProbe, referenceProbes, referencesTo } from "./references.ts";
import {
  claimUpload,
  deletedFiles,
  ensureStorageTable,
  type FileRow,
  fileRow,
  forgetFile,
  insertUploading,
  markDeleted,
  markReady,
  oldReadyFiles,
  recordSha256,
  STORAGE_TABLE,
} from "./table.ts";

/** An upload URL is honoured this long after it expired, for a body still arriving. */
const UPLOAD_GRACE_MS = 60 * 60 * 1000;
/** Files handled per step of a sweep or a collection. */
const BATCH = 100;
/** A collection looks at this many old files at most per run (the next run goes on). */
const COLLECT_LIMIT = 1_000;
/** Least time between two collections of a shard. */
const MAX_COLLECT_INTERVAL_MS = 10 * 60 * 1000;

/** What a {@link FileStore} needs from its shard. */
export interface FileStoreDeps {
  sql: SqlStorage;
  env: unknown;
  schema: SchemaDefinition;
  shardKey: string;
  options: ResolvedStorageOptions;
  /** Runs `task` while no mutation runs (writes here never land inside a mutation's transaction). */
  exclusive<T>(task: () => Promise<T>): Promise<T>;
  /** Tells live queries that read file metadata that it changed. */
  changed(tables: ReadonlySet<string>): void;
  now?: () => number;
}

/**
 * A shard's files: the `_svc_storage` table, the bytes in R2 and the rules
 * that tie them together (docs/storage.md). `ctx.storage` is built on it;
 * the worker's upload route claims and completes uploads through it; it
 * removes deleted files' bytes after their transaction committed and
 * collects uploads no document references.
 *
 * @example const files = new FileStore({ sql, env, schema, shardKey, options, exclusive, changed });
 */
export class FileStore {
  readonly #deps: FileStoreDeps;
  /** How documents of the schema reference files. */
  readonly probes: readonly ReferenceProbe[];
  #lastCollectAt = 0;
  #sweeping: Promise<void> | undefined;
  /**
   * A file may be marked deleted with its bytes still in R2: one was since
   * the last sweep (or, just started, one may have been before).
   */
  #toRemove = true;

  constructor(deps: FileStoreDeps) {
    this.#deps = deps;
    this.probes = referenceProbes(deps.schema);
  }

  /**
   * Creates the table and the indexes that make reference lookups cheap;
   * the shard runs it right after the schema's tables exist.
   */
  ensure(): void {
    ensureStorageTable(this.#deps.sql);
    for (const probe of this.probes) if (probe.index !== null) this.#deps.sql.exec(probe.index);
  }

  get sql(): SqlStorage {
    return this.#deps.sql;
  }

  get shardKey(): string {
    return this.#deps.shardKey;
  }

  now(): number {
    return (this.#deps.now ?? Date.now)();
  }

  /** Runs `task` while no mutation runs (an action's writes, outside any transaction). */
  exclusive<T>(task: () => Promise<T>): Promise<T> {
    return this.#deps.exclusive(task);
  }

  /** The files' bucket, or the configuration error naming the missing binding. */
  bucket(): R2Bucket {
    return storageBucket(this.#deps.env, this.#deps.options);
  }

  /** The secret that signs file URLs, or `UNAVAILABLE` (`no_secret`) where none is set. */
  secret(): string {
    return storageSecret(this.#deps.env, this.#deps.options);
  }

  /**
   * After the shard's data was deleted (its `_svc_storage` rows with it):
   * removes every byte of its files from R2, so nothing is left unowned.
   * Nothing to do where no bucket is bound (storage unused). Answers how many
   * objects went.
   */
  async deleteAllBytes(): Promise<number> {
    const bucket = this.boundBucket();
    if (bucket === null) return 0;
    const prefix = objectKey(this.#deps.shardKey, "");
    let deleted = 0;
    for (;;) {
      const page = await bucket.list({ prefix, limit: 1000 });
      if (page.objects.length === 0) return deleted;
      await bucket.delete(page.objects.map((object) => object.key));
      deleted += page.objects.length;
    }
  }

  /**
   * The files' bucket, or `null` where none is bound (storage unused). The
   * bucket alone: removing or backing up bytes needs no signing secret, and
   * an app that bound a bucket but never set the secret must still be able
   * to delete, back up and restore a shard.
   */
  boundBucket(): R2Bucket | null {
    const bound = (this.#deps.env as Record<string, unknown> | undefined)?.[
      this.#deps.options.bucket
    ];
    if (bound === undefined) return null;
    return bucketOf(this.#deps.env, this.#deps.options.bucket, "storage.bucket");
  }

  /** The R2 key of one of this shard's files. */
  key(storageId: string): string {
    return objectKey(this.#deps.shardKey, storageId);
  }

  /**
   * A stored file's SHA-256 (hex): the one recorded, or, for an upload
   * (which hashes nothing on its way in, docs/storage.md "Costs"), computed
   * now from its bytes in R2 and recorded for the next time. The record
   * waits for running mutations and is not awaited, so a caller inside a
   * mutation or a backup's export never waits on itself.
   *
   * @example const sha256 = await files.sha256Of(row);
   */
  async sha256Of(row: FileRow): Promise<string> {
    if (row.sha256 !== null) return row.sha256;
    const sha256 = await digestObject(this.bucket(), this.key(row.id));
    if (sha256 === null) throw missingBytes(row.id);
    const record = this.#deps.exclusive(async () => recordSha256(this.#deps.sql, row.id, sha256));
    void record.catch((error: unknown) =>
      console.error("svc: recording a file's sha256 failed", error),
    );
    return sha256;
  }

  /** Whether any document references the file (RLS not applied). */
  isReferenced(storageId: string): boolean {
    return referencesTo(this.#deps.sql, this.probes, storageId, 1).length > 0;
  }

  /**
   * Takes an upload URL's one use. A second use (or a URL whose mutation
   * rolled back) is `CONFLICT` with `data.reason` `used`.
   */
  claim(storageId: string): Promise<void> {
    return this.#deps.exclusive(async () => {
      if (!claimUpload(this.#deps.sql, storageId)) throw usedUrl();
    });
  }

  /**
   * Starts an upload that needs no URL (the operator's) under the id its
   * file gets; the bytes are then stored and {@link complete}d like any upload.
   */
  reserve(storageId: string): Promise<void> {
    return this.#deps.exclusive(async () => {
      const now = this.now();
      insertUploading(this.#deps.sql, { id: storageId, now, expiresAt: now + UPLOAD_GRACE_MS });
    });
  }

  /** Records the bytes of a {@link claim}ed or {@link reserve}d upload: the file is ready. */
  complete(storageId: string, stored: StoredBytes, contentType: string): Promise<void> {
    return this.#deps.exclusive(async () => {
      const row = fileRow(this.#deps.sql, storageId);
      if (row?.state !== "uploading")
        throw new SvcError("CONFLICT", "This upload was abandoned; ask for a new upload URL.", {
          data: { reason: "abandoned" },
        });
      this.#ready(row, stored, contentType);
    });
  }

  /**
   * Takes an upload URL's one use and records the bytes it stored, in one
   * step (one shard call per upload): only a URL still unused becomes its
   * file. Any other (used before, or its mutation rolled back) is
   * `CONFLICT` with `data.reason` `used`, and the caller removes the bytes.
   */
  commitUpload(storageId: string, stored: StoredBytes, contentType: string): Promise<void> {
    return this.#deps.exclusive(async () => {
      const row = fileRow(this.#deps.sql, storageId);
      if (row?.state !== "pending") throw usedUrl();
      this.#ready(row, stored, contentType);
    });
  }

  #ready(row: FileRow, stored: StoredBytes, contentType: string): void {
    markReady(this.#deps.sql, {
      id: row.id,
      now: this.now(),
      ...stored,
      contentType,
      uploader: row.uploader,
    });
    this.#deps.changed(new Set([STORAGE_TABLE]));
    this.afterCommit();
  }

  /** Records bytes an action stored (`ctx.storage.store`). */
  stored(storageId: string, stored: StoredBytes, contentType: string, uploader: string | null) {
    return this.#deps.exclusive(async () => {
      markReady(this.#deps.sql, {
        id: storageId,
        now: this.now(),
        ...stored,
        contentType,
        uploader,
      });
      this.#deps.changed(new Set([STORAGE_TABLE]));
    });
  }

  /**
   * Marks a file deleted in the caller's transaction (`ctx.storage.delete`
   * in a mutation); its bytes and row go after it commits. Answers whether
   * there was a file.
   */
  markDeleted(storageId: string): boolean {
    const found = markDeleted(this.#deps.sql, storageId);
    if (found) this.#toRemove = true;
    return found;
  }

  /** Gives up an upload that failed: its row and whatever R2 kept go. */
  async abort(storageId: string): Promise<void> {
    await this.#deps.exclusive(async () => {
      this.markDeleted(storageId);
    });
    await this.sweep();
  }

  /** Deletes a file now (outside any transaction: actions, the operator). */
  async deleteNow(storageId: string): Promise<boolean> {
    const found = await this.#deps.exclusive(async () => this.markDeleted(storageId));
    if (found) this.#deps.changed(new Set([STORAGE_TABLE]));
    await this.sweep();
    return found;
  }

  /**
   * After a transaction that touched files committed: removes deleted files'
   * bytes when one was deleted and, at most once per interval, collects
   * unreferenced old uploads (and expired upload URLs' rows). A commit that
   * deleted nothing (an upload URL issued, an upload recorded) does nothing
   * more: looking for bytes to remove after each one cost ~0.35 ms of worker
   * CPU per upload (storage bench worker, 1 KiB files, loaded machine). Runs in the background; failures are logged and retried
   * next time.
   */
  afterCommit(): void {
    const interval = Math.min(this.#deps.options.unreferencedMs, MAX_COLLECT_INTERVAL_MS);
    const collect = this.now() - this.#lastCollectAt >= interval;
    if (!collect && !this.#toRemove) return;
    const work = collect ? this.collect() : this.sweep();
    void work.catch((error: unknown) => console.error("svc: file storage cleanup failed", error));
  }

  /** Removes the bytes and rows of deleted files and expired uploads. */
  sweep(): Promise<void> {
    this.#sweeping ??= this.#sweep().finally(() => {
      this.#sweeping = undefined;
    });
    return this.#sweeping;
  }

  async #sweep(): Promise<void> {
    // Deletions from now on are for the next sweep (this one may have read past them).
    this.#toRemove = false;
    const bucket = this.bucket();
    for (;;) {
      const ids = deletedFiles(this.#deps.sql, this.now(), UPLOAD_GRACE_MS, BATCH);
      if (ids.length === 0) return;
      await bucket.delete(ids.map((id) => this.key(id)));
      await this.#deps.exclusive(async () => {
        for (const id of ids) {
          if (fileRow(this.#deps.sql, id)?.state !== "ready") forgetFile(this.#deps.sql, id);
        }
      });
    }
  }

  /**
   * Deletes ready files older than `unreferencedMs` that no document
   * references, then sweeps. Answers how many it deleted.
   *
   * @example await files.collect(); // after a day, an avatar that was never saved is gone
   */
  async collect(): Promise<number> {
    this.#lastCollectAt = this.now();
    const before = this.now() - this.#deps.options.unreferencedMs;
    let after: { createdAt: number; id: string } | null = null;
    let seen = 0;
    let deleted = 0;
    while (seen < COLLECT_LIMIT) {
      const page = oldReadyFiles(this.#deps.sql, before, after, BATCH);
      if (page.length === 0) break;
      seen += page.length;
      after = page[page.length - 1]!;
      deleted += await this.#deps.exclusive(async () => {
        let count = 0;
        for (const { id } of page) if (!this.isReferenced(id) && this.markDeleted(id)) count++;
        return count;
      });
    }
    if (deleted > 0) this.#deps.changed(new Set([STORAGE_TABLE]));
    await this.sweep();
    return deleted;
  }
}
