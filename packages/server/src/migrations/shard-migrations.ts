import { createDatabase, readOnly } from "../db/database.ts";
import type { DocumentView, PresentedDocument } from "../db/document-view.ts";
import { rowToDocument, type StoredRow } from "../db/storage.ts";
import { armAlarm } from "../durable/alarms.ts";
import { SvcError } from "../errors/svc-error.ts";
import { authContext } from "../model/identity.ts";
import type { AnyTableDefinition, SchemaDefinition } from "../schema/define.ts";
import type { Migration, MigrationCtx, MigrationRegistry } from "./define.ts";
import { type DryRunReport, dryRun, emptyDryRunReport } from "./dry-run.ts";
import { isolateRequests } from "./isolate-requests.ts";
import { migrateInMemory, pendingFor } from "./present.ts";
import { newRecord } from "./register.ts";
import { type BatchContext, retryFailed, runBatch } from "./runner.ts";
import {
  createMigrationTables,
  failedDocuments,
  insertRecord,
  type MigrationError,
  type MigrationRecord,
  readRecords,
  saveRecord,
  writeMark,
} from "./store.ts";

/** What a shard's migrations need from the shard. */
export interface ShardMigrationsDeps {
  storage: DurableObjectStorage;
  schema: SchemaDefinition;
  migrations: MigrationRegistry;
  /** Runs a task under the shard's mutation lock (no mutation interleaves with a batch). */
  exclusive<T>(task: () => Promise<T>): Promise<T>;
  /** The shard's key when the runtime knows it (`ctx.id.name`). */
  shardKey: string | undefined;
  /** Called after a batch changed or deleted documents of `tables` (the registry's counts). */
  written?: (tables: ReadonlySet<string>) => void;
}

/** One migration in one shard, as `status` and `run` answer it. */
export interface MigrationStatus extends MigrationRecord {
  /** The first documents that failed to migrate (at most 10). */
  failedDocuments: MigrationError[];
  /** `false` for a migration this shard ran but the app no longer declares. */
  declared: boolean;
}

/** A batch takes at most this long before calls waiting on the shard get their turn. */
const MAX_BATCH_MS = 50;
/** One alarm runs batches for at most this long, then re-arms (alarms are retried if they fail). */
const ALARM_BUDGET_MS = 5_000;

/**
 * Documents between two yields to the event loop while no calls come in.
 * Mutations waiting on the lock run between any two batches; calls not yet
 * delivered need a macrotask, which costs ~1.5–5 ms in workerd: yielding
 * after every batch of 500 cost a third of the throughput in the bench, so
 * an idle shard yields after about 2,000 documents (tens of milliseconds of
 * work).
 */
const YIELD_EVERY_DOCUMENTS = 2_000;
/**
 * The most documents of a batch while requests reach the isolate (calls to
 * this shard or a sibling, requests to the worker): the shard then yields
 * after every batch instead of every 2,000 documents. A call crosses the
 * loop more than once (delivered, answered, its writes confirmed): in the
 * bench, reads to a migrating shard took ~300 ms (p50) with 2,000
 * documents between yields and ~157 ms with this (BENCHMARKS.md, section
 * 13).
 */
const BUSY_BATCH_SIZE = 100;

const yieldToCalls = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * A shard's migrations: registers each migration the first time the shard
 * runs code that declares it (fixing its boundary: every document stored
 * before it is to migrate, every one written after is already in the new
 * shape), presents rows the runner has not reached yet migrated in memory
 * (the {@link DocumentView} `ctx.db` uses), runs batches from the shard's
 * alarm, and answers status and dry runs for the admin API.
 */
export class ShardMigrations implements DocumentView {
  readonly #deps: ShardMigrationsDeps;
  readonly #records = new Map<string, MigrationRecord>();
  /** Table → its declared migrations not yet finished, in run order: what reads must apply. */
  readonly #active = new Map<string, { name: string; migration: Migration }[]>();
  /** Migrations whose earlier failures this run retries, and the last id retried. */
  readonly #retrying = new Map<string, string>();
  /** The isolate's request count when the batch loop last looked (./isolate-requests.ts). */
  #requestsSeen = isolateRequests();
  #shardKey: string | undefined;

  constructor(deps: ShardMigrationsDeps) {
    this.#deps = deps;
    this.#shardKey = deps.shardKey;
  }

  /**
   * Creates svc's migration tables, registers new migrations and loads every
   * record. Runs at shard start, before any call. Answers the latest
   * boundary: the shard's creation clock must stay above it.
   */
  register(): number {
    const { sql } = this.#deps.storage;
    // Also after the shard's data was deleted: what was in memory is gone with it.
    this.#records.clear();
    this.#retrying.clear();
    createMigrationTables(sql);
    const known = new Map(readRecords(sql).map((record) => [record.name, record]));
    let floor = 0;
    for (const name of Object.keys(this.#deps.migrations).sort()) {
      const migration = this.#deps.migrations[name] as Migration;
      let record = known.get(name);
      if (record === undefined) {
        record = newRecord(this.#deps.storage.sql, name, migration);
        insertRecord(sql, record);
      } else if (record.table !== migration.table) {
        console.error(
          `svc: migration ${name} now names table ${migration.table}, but this shard registered it for ${record.table}; rename the migration to run it again`,
        );
        continue;
      }
      this.#records.set(name, record);
      floor = Math.max(floor, record.boundary);
    }
    for (const record of known.values()) {
      if (!this.#records.has(record.name) && record.state !== "done") {
        console.error(
          `svc: migration ${record.name} (table ${record.table}) has not finished in this shard, but the app no longer declares it: its documents are served as stored`,
        );
      }
    }
    this.#refreshActive();
    return floor;
  }

  #refreshActive(): void {
    this.#active.clear();
    for (const [name, record] of [...this.#records].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const migration = this.#deps.migrations[name] as Migration;
      if (migration.drop || (record.state === "done" && record.failed === 0)) continue;
      const list = this.#active.get(record.table) ?? [];
      list.push({ name, migration });
      this.#active.set(record.table, list);
    }
  }

  present(
    table: string,
    row: StoredRow,
    shardKey: string,
  ): PresentedDocument | null | Promise<PresentedDocument | null> {
    const active = this.#active.get(table);
    const pending =
      active === undefined ? [] : pendingFor(this.#deps.storage.sql, active, this.#records, row);
    if (pending.length === 0) return { doc: rowToDocument(row), pending };
    return migrateInMemory({
      table: this.#deps.schema.tables[table] as AnyTableDefinition,
      tableName: table,
      row,
      migrations: pending.map((name) => this.#deps.migrations[name] as Migration),
      names: pending,
      ctx: this.#context(shardKey),
    });
  }

  wrote(_table: string, id: string, pending: readonly string[]): void {
    for (const name of pending) writeMark(this.#deps.storage.sql, name, id, "app");
  }

  #context(shardKey: string): MigrationCtx {
    const db = createDatabase({
      sql: this.#deps.storage.sql,
      schema: this.#deps.schema,
      policyCtx: {
        auth: authContext(null, "migration"),
        meta: { path: "", kind: "query", transport: "internal", shardKey, requestId: "migration" },
      },
      enforceRls: false,
      now: () => Date.now(),
    });
    return { db: readOnly(db), shardKey };
  }

  #batchContext(name: string, busy = false): BatchContext {
    const declared = this.#deps.migrations[name] as Migration;
    const migration = busy
      ? { ...declared, batchSize: Math.min(declared.batchSize, BUSY_BATCH_SIZE) }
      : declared;
    const active = this.#active.get(migration.table) ?? [];
    return {
      sql: this.#deps.storage.sql,
      storage: this.#deps.storage,
      migration,
      table: migration.drop
        ? undefined
        : (this.#deps.schema.tables[migration.table] as AnyTableDefinition),
      // A later migration of the same table takes the document from here: only the last one's result must match the schema.
      validate: active.at(-1)?.name === name || active.length === 0,
      ctx: this.#context(this.#shardKey ?? ""),
      maxBatchMs: MAX_BATCH_MS,
    };
  }

  #recordOf(name: string): MigrationRecord {
    const record = Object.hasOwn(this.#deps.migrations, name) ? this.#records.get(name) : undefined;
    if (record === undefined)
      throw new SvcError("NOT_FOUND", `No migration named ${JSON.stringify(name)}.`);
    return record;
  }

  /** Every migration this shard knows, declared or not. */
  status(): MigrationStatus[] {
    const { sql } = this.#deps.storage;
    return readRecords(sql).map((record) => ({
      ...record,
      failedDocuments: record.failed > 0 ? failedDocuments(sql, record.name, 10) : [],
      declared: Object.hasOwn(this.#deps.migrations, record.name),
    }));
  }

  /**
   * Starts (or resumes) `name` and every unfinished earlier migration of the
   * same table, which must run first; the shard's alarm runs the batches.
   * A migration that is done and has no failures is left as it is.
   */
  async run(name: string, shardKey: string): Promise<MigrationStatus[]> {
    const target = this.#recordOf(name);
    this.#shardKey = shardKey;
    await this.#deps.exclusive(async () => {
      const { storage } = this.#deps;
      storage.transactionSync(() => {
        for (const record of this.#records.values()) {
          if (record.table !== target.table || record.name > name) continue;
          const finished = record.state === "done" && record.failed === 0;
          if (finished || record.state === "running") continue;
          const next: MigrationRecord = {
            ...record,
            state: "running",
            startedAt: record.startedAt ?? Date.now(),
            finishedAt: null,
            error: record.state === "stopped" ? null : record.error,
          };
          if (record.failed > 0) this.#retrying.set(record.name, "");
          saveRecord(storage.sql, next);
          this.#records.set(record.name, next);
        }
      });
      this.#refreshActive();
    });
    await this.#arm();
    return this.status().filter((record) => record.table === target.table && record.name <= name);
  }

  /** Counts what running `name` would do now, with up to `samples` before/after pairs. */
  async dryRun(name: string, shardKey: string, samples: number): Promise<DryRunReport> {
    const record = this.#recordOf(name);
    const context = { ...this.#batchContext(name), ctx: this.#context(shardKey) };
    if (record.state === "done" && record.failed === 0) {
      return emptyDryRunReport();
    }
    return dryRun(context, record, { samples, exclusive: (task) => this.#deps.exclusive(task) });
  }

  /** The first running migration whose earlier migrations of the same table are finished. */
  #nextRunning(): MigrationRecord | undefined {
    const records = [...this.#records.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
    return records.find(
      (record) =>
        record.state === "running" &&
        !records.some(
          (earlier) =>
            earlier.table === record.table &&
            earlier.name < record.name &&
            !(earlier.state === "done" && earlier.failed === 0) &&
            earlier.state !== "running",
        ),
    );
  }

  /** Runs batches for a while; re-arms the alarm while work remains. */
  async alarm(): Promise<void> {
    const deadline = Date.now() + ALARM_BUDGET_MS;
    let sinceYield = 0;
    // Requests that arrived before the alarm are a sign of traffic: start with small batches.
    let busy = this.#sawRequests();
    for (;;) {
      const record = this.#nextRunning();
      if (record === undefined) return;
      if (Date.now() > deadline) return this.#arm();
      sinceYield += await this.#deps.exclusive(() => this.#step(record.name, busy));
      if (busy || sinceYield >= YIELD_EVERY_DOCUMENTS) {
        // workerd's clock moves only at I/O: the deadline is checked against the time of this yield.
        await yieldToCalls();
        sinceYield = 0;
        busy = this.#sawRequests();
      }
    }
  }

  /**
   * Whether requests reached this isolate since the loop last looked: calls
   * to this shard or a sibling, and requests to the worker, all wait for the
   * loop's next yield (see {@link BUSY_BATCH_SIZE}).
   */
  #sawRequests(): boolean {
    const requests = isolateRequests();
    const saw = requests !== this.#requestsSeen;
    this.#requestsSeen = requests;
    return saw;
  }

  /** Runs one batch of `name` (a small one when `busy`); answers how many documents it went through. */
  async #step(name: string, busy: boolean): Promise<number> {
    const record = this.#records.get(name) as MigrationRecord;
    if (record.state !== "running") return 0;
    const context = this.#batchContext(name, busy);
    let next: MigrationRecord;
    const retryAfter = this.#retrying.get(name);
    if (retryAfter !== undefined) {
      const retried = await retryFailed(context, record, retryAfter);
      next = retried.record;
      if (retried.lastId === null) this.#retrying.delete(name);
      else this.#retrying.set(name, retried.lastId);
    } else {
      next = await runBatch(context, record);
    }
    this.#records.set(name, next);
    if (next.changed + next.deleted > record.changed + record.deleted) {
      this.#deps.written?.(new Set([next.table]));
    }
    if (next.state !== "running") this.#refreshActive();
    // A finished run counts as a full batch, so the loop yields before looking for the next one;
    // a retry step counts its batch (retries do not move `scanned`).
    if (next.state !== "running") return YIELD_EVERY_DOCUMENTS;
    return retryAfter === undefined ? next.scanned - record.scanned : context.migration.batchSize;
  }

  /** Makes sure the alarm fires now while a migration runs (never pushing an earlier alarm later). */
  async #arm(): Promise<void> {
    if (this.#nextRunning() !== undefined) await armAlarm(this.#deps.storage, Date.now());
  }
}
