import { exportStream } from "../backups/export.ts";
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
import { normalizeError } from "../errors/normalize.ts";
import { serializeError } from "../errors/svc-error.ts";
import { countDocuments } from "../registry/report.ts";
import type { RegistryReporter } from "../registry/reporter.ts";
import type { SchemaDefinition } from "../schema/define.ts";
import { SVC_VERSION } from "../version.ts";
import type { BackupTarget, Outcome, RestoreResult } from "./data-endpoint.ts";
import { readMeta } from "./meta.ts";

/** Lines staged per step when a shard restores from its bucket. */
const RESTORE_BATCH_LINES = 1_000;

/** What {@link ShardData} needs from its shard object. */
export interface ShardDataDeps {
  key: string;
  ctx: DurableObjectState;
  env: unknown;
  schema: SchemaDefinition;
  reporter: RegistryReporter | undefined;
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
  /** Imports begun on a shard the registry has never heard of (see {@link importAbort}). */
  readonly #intoUnlisted = new Set<string>();

  constructor(deps: ShardDataDeps) {
    this.#deps = deps;
    this.#import = new ShardImport(deps.ctx.storage, deps.schema);
  }

  /** Opens an export; the lock is held until the stream ends (or stalls). */
  async exportData(): Promise<ReadableStream<Uint8Array>> {
    const release = await this.#hold();
    try {
      return exportStream(this.#deps.ctx.storage.sql, this.#header(), release);
    } catch (error) {
      release();
      throw error;
    }
  }

  importBegin(): string {
    const id = this.#import.begin(this.#deps.key);
    if (this.#deps.reporter?.unreported) this.#intoUnlisted.add(id);
    return id;
  }

  importLines(id: string, lines: readonly NumberedLine[]): void {
    this.#import.add(id, lines);
  }

  importCommit(id: string): RestoreResult {
    const { documents, tables } = this.#import.commit(id, this.#deps.key);
    this.#intoUnlisted.delete(id);
    this.#written(tables);
    return { documents, tables };
  }

  /** Ends a refused import; a shard it alone brought into being is erased, so no registry row appears. */
  async importAbort(id: string): Promise<void> {
    this.#import.abort(id);
    if (!this.#intoUnlisted.delete(id)) return;
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
      const header = this.#header();
      info = await uploadBackup(
        bucket,
        header,
        exportStream(this.#deps.ctx.storage.sql, header, () => undefined),
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
    const id = this.#import.begin(this.#deps.key);
    try {
      let batch: NumberedLine[] = [];
      for await (const line of ndjsonLines(body)) {
        batch.push(line);
        if (batch.length >= RESTORE_BATCH_LINES) {
          this.#import.add(id, batch);
          batch = [];
        }
      }
      this.#import.add(id, batch);
      return this.importCommit(id);
    } finally {
      this.#import.abort(id);
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

  #header(): BackupHeader {
    const { sql } = this.#deps.ctx.storage;
    const tables: Record<string, number> = {};
    for (const table of Object.keys(this.#deps.schema.tables)) {
      tables[table] = countDocuments(sql, table);
    }
    return {
      format: BACKUP_FORMAT,
      formatVersion: BACKUP_FORMAT_VERSION,
      schemaVersion: readMeta(sql, "schema_version"),
      svcVersion: SVC_VERSION,
      shardKey: this.#deps.key,
      createdAt: new Date().toISOString(),
      tables,
    };
  }

  #written(tables: Record<string, number>): void {
    const names = new Set(Object.keys(tables));
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
