import { exportStream } from "../backups/export.ts";
import { followedBy } from "../backups/followed-by.ts";
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION, type BackupHeader } from "../backups/format.ts";
import { ShardImport } from "../backups/import.ts";
import { type NumberedLine, ndjsonLines } from "../backups/lines.ts";
import { armPointInTimeRestore } from "../backups/point-in-time.ts";
import {
  type BackupInfo,
  bucketOf,
  openBackup,
  pruneBackups,
  uploadBackup,
} from "../backups/r2.ts";
import type { SystemTableBackup } from "../backups/system-tables.ts";
import { countDocuments } from "../db/count-documents.ts";
import { readMeta } from "../durable/meta.ts";
import { normalizeError } from "../errors/normalize.ts";
import type { Outcome } from "../errors/outcome.ts";
import { serializeError } from "../errors/svc-error.ts";
import type { BackupTarget, RestoreResult } from "../registry/data-endpoint.ts";
import type { RegistryReporter } from "../registry/reporter.ts";
import type { SchemaDefinition } from "../schema/define.ts";
import { countStoredFiles, fileLines } from "../storage/backup-lines.ts";
import { STORAGE_TABLE } from "../storage/table.ts";
import { SVC_VERSION } from "../version.ts";
import { FileRestore, type FileRestoreTarget } from "./file-restore.ts";

/** Lines staged per step when a shard restores from its bucket. */
const RESTORE_BATCH_LINES = 1_000;

/** What {@link ShardData} needs from its shard object. */
export interface ShardDataDeps {
  key: string;
  ctx: DurableObjectState;
  env: unknown;
  schema: SchemaDefinition;
  reporter: RegistryReporter | undefined;
  /** Where the shard's file bytes are, for backups that carry them. */
  files: FileRestoreTarget;
  /** svc's own tables its backups carry (the scheduler's pending jobs). */
  systemTables: readonly SystemTableBackup[];
  /** Runs `task` while no mutation runs (the shard's mutation lock). */
  exclusive<T>(task: () => Promise<T>): Promise<T>;
  /** Tells live queries these tables changed. */
  changed(tables: ReadonlySet<string>): void;
  /** Closes every subscription socket (their clients reconnect). */
  closeSockets(): void;
  /** Recreates the tables and indexes of the schema (after the data was deleted). */
  reinitialize(): void;
}

/** Runs `work` and answers its value or its error in a form that crosses JS RPC. */
export async function outcome<T>(work: () => T | Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    return { ok: false, error: serializeError(normalizeError(error)) };
  }
}

/**
 * The shard's side of the data lifecycle: export, import, delete, backups to
 * R2, restores and point-in-time restore. Exports and backups hold the
 * shard's mutation lock for their whole run, so they are consistent
 * snapshots: writes wait, reads and live queries go on.
 */
export class ShardData {
  readonly #deps: ShardDataDeps;
  readonly #import: ShardImport;
  /**
   * Imports begun on a shard the registry has never heard of (see
   * {@link importAbort}), each with the release of its hold on the first report.
   */
  readonly #intoUnlisted = new Map<string, () => void>();
  /** The files of each running import, by import id. */
  readonly #fileRestores = new Map<string, FileRestore>();

  constructor(deps: ShardDataDeps) {
    this.#deps = deps;
    this.#import = new ShardImport(deps.ctx.storage, deps.schema, deps.systemTables, [
      STORAGE_TABLE,
    ]);
  }

  /** Opens an export; the lock is held until the stream ends (or stalls). */
  async exportData(): Promise<ReadableStream<Uint8Array>> {
    const release = await this.#hold();
    try {
      return this.#backupStream(this.#header(false), release);
    } catch (error) {
      release();
      throw error;
    }
  }

  importBegin(): string {
    const id = this.#import.begin(this.#deps.key);
    for (const [other, files] of this.#fileRestores) {
      void files.abort();
      this.#fileRestores.delete(other);
    }
    this.#fileRestores.set(id, new FileRestore(this.#deps.files));
    // A new import ends older ones: their holds on the first report go with them.
    for (const other of [...this.#intoUnlisted.keys()]) this.#leaveUnlisted(other);
    const reporter = this.#deps.reporter;
    if (reporter?.unreported) this.#intoUnlisted.set(id, reporter.holdFirstReport());
    return id;
  }

  /** Stages a batch of lines: documents into staging tables, file bytes into R2. */
  async importLines(id: string, lines: readonly NumberedLine[]): Promise<void> {
    const files = this.#fileRestores.get(id);
    try {
      this.#import.add(id, files === undefined ? lines : await files.take(lines));
    } catch (error) {
      this.#import.abort(id);
      await this.#abortFiles(id);
      throw error;
    }
  }

  async importCommit(id: string): Promise<RestoreResult> {
    const files = this.#fileRestores.get(id);
    try {
      await files?.prepare();
      const { documents, tables } = this.#import.commit(id, this.#deps.key, (sql) =>
        files?.insertRows(sql),
      );
      this.#fileRestores.delete(id);
      this.#leaveUnlisted(id);
      this.#written(tables, (files?.files ?? 0) > 0);
      return { documents, tables };
    } catch (error) {
      this.#import.abort(id);
      await this.#abortFiles(id);
      throw error;
    }
  }

  /** Ends a refused import; a shard it alone brought into being is erased, so no registry row appears. */
  async importAbort(id: string): Promise<void> {
    this.#import.abort(id);
    await this.#abortFiles(id);
    if (!this.#leaveUnlisted(id)) return;
    const { ctx, reporter } = this.#deps;
    // Still unheard of, and nobody else is using it (no socket): nothing but this import made it.
    if (!reporter?.unreported || ctx.getWebSockets().length > 0) return;
    await this.#deps.exclusive(async () => {
      await ctx.storage.deleteAlarm();
      await ctx.storage.deleteAll();
      this.#deps.reinitialize();
      reporter.reset(Date.now());
    });
  }

  /** Forgets an import into an unlisted shard and releases its hold; whether it was one. */
  #leaveUnlisted(id: string): boolean {
    const release = this.#intoUnlisted.get(id);
    if (release === undefined) return false;
    this.#intoUnlisted.delete(id);
    release();
    return true;
  }

  /** Deletes everything the shard stores, then starts it again empty. */
  deleteData(): Promise<{ documents: number; deletedAt: number }> {
    return this.#deps.exclusive(async () => {
      const { storage } = this.#deps.ctx;
      let documents = 0;
      for (const table of Object.keys(this.#deps.schema.tables)) {
        documents += countDocuments(storage.sql, table);
      }
      this.#deps.closeSockets();
      await storage.deleteAlarm();
      await storage.deleteAll();
      const deletedAt = Date.now();
      this.#import.reset();
      this.#deps.reinitialize();
      this.#deps.reporter?.reset(deletedAt);
      this.#deps.changed(new Set(Object.keys(this.#deps.schema.tables)));
      return { documents, deletedAt };
    });
  }

  /** Writes a consistent backup into the bucket, then keeps only the newest `keep`. */
  async backupTo(target: BackupTarget): Promise<BackupInfo> {
    const bucket = bucketOf(this.#deps.env, target.bucket);
    const release = await this.#hold();
    let info: BackupInfo;
    try {
      const header = this.#header(target.files === true);
      info = await uploadBackup(
        bucket,
        header,
        this.#backupStream(header, () => undefined),
      );
    } finally {
      release();
    }
    await pruneBackups(bucket, this.#deps.key, target.keep);
    return info;
  }

  /** Restores a backup from the bucket into this shard, which must be empty. */
  async restoreFrom(bucketName: string, backup: string): Promise<RestoreResult> {
    const body = await openBackup(bucketOf(this.#deps.env, bucketName), backup);
    const id = this.importBegin();
    try {
      let batch: NumberedLine[] = [];
      for await (const line of ndjsonLines(body)) {
        batch.push(line);
        if (batch.length >= RESTORE_BATCH_LINES) {
          await this.importLines(id, batch);
          batch = [];
        }
      }
      await this.importLines(id, batch);
      return await this.importCommit(id);
    } finally {
      this.#import.abort(id);
      this.#leaveUnlisted(id);
      await this.#abortFiles(id);
    }
  }

  /** Arms a point-in-time restore; the shard restarts right after answering. */
  async rewind(at: number): Promise<{ bookmark: string }> {
    const bookmark = await armPointInTimeRestore(this.#deps.ctx.storage, at);
    const { ctx } = this.#deps;
    // After the answer has left: the restored database is loaded when the object starts again.
    setTimeout(() => ctx.abort("svc: restarting to restore a point in time"), 0);
    return { bookmark };
  }

  /** The documents, then the files (their bytes too when the header says so). */
  #backupStream(header: BackupHeader, release: () => void): ReadableStream<Uint8Array> {
    const { sql } = this.#deps.ctx.storage;
    const systemTables = this.#deps.systemTables;
    if ((header.files ?? 0) === 0) return exportStream(sql, header, release, systemTables);
    const bucket = header.fileBytes === true ? this.#deps.files.bucket() : null;
    return followedBy(
      exportStream(sql, header, () => undefined, systemTables),
      () => fileLines(sql, bucket, this.#deps.files),
      release,
    );
  }

  /** Ends an import's file restore, removing the bytes it stored. */
  async #abortFiles(id: string): Promise<void> {
    const files = this.#fileRestores.get(id);
    this.#fileRestores.delete(id);
    await files?.abort();
  }

  /** The backup's first line; `fileBytes`: the files' bytes follow their metadata. */
  #header(fileBytes: boolean): BackupHeader {
    const { sql } = this.#deps.ctx.storage;
    const tables: Record<string, number> = {};
    for (const table of Object.keys(this.#deps.schema.tables)) {
      tables[table] = countDocuments(sql, table);
    }
    // svc's own rows only when there are some: a backup without them reads as before.
    for (const system of this.#deps.systemTables) {
      const rows = system.count(sql);
      if (rows > 0) tables[system.table] = rows;
    }
    return {
      format: BACKUP_FORMAT,
      formatVersion: BACKUP_FORMAT_VERSION,
      schemaVersion: readMeta(sql, "schema_version"),
      svcVersion: SVC_VERSION,
      shardKey: this.#deps.key,
      createdAt: new Date().toISOString(),
      tables,
      files: countStoredFiles(sql),
      ...(fileBytes ? { fileBytes: true } : {}),
    };
  }

  #written(tables: Record<string, number>, files = false): void {
    const names = new Set(Object.keys(tables));
    if (files) names.add(STORAGE_TABLE);
    if (names.size === 0) return;
    this.#deps.reporter?.noteWrite(names);
    this.#deps.changed(names);
  }

  /** Takes the mutation lock; answers the function that gives it back. */
  #hold(): Promise<() => void> {
    return new Promise((acquired) => {
      void this.#deps.exclusive(() => new Promise<void>((release) => acquired(() => release())));
    });
  }
}
