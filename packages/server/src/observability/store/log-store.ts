import { DurableObject } from "cloudflare:workers";
import type { CallRecord, EntryPoint } from "../record.ts";
import { parseBodies, storedBodies } from "./bodies.ts";
import { printBatch, printPending } from "./console-printer.ts";
import type { LogDrain } from "./drain.ts";
import { deliverRound, registerDrains } from "./drain-runner.ts";
import type {
  ErrorGroupRow,
  LogStoreEndpoint,
  PartitionCursor,
  RecordFilters,
  ServiceRow,
  StoredCall,
  StoreStats,
  WriteOptions,
} from "./endpoint.ts";
import type { PackedRollups, PackedTotals } from "./packed-rollups.ts";
import { getRecord, listRecords, serviceRows, storeStats, tailRecords } from "./read.ts";
import { addStored, DEFAULT_RETENTION, pruneByAge, pruneBySize, storedSize } from "./retention.ts";
import type { RollupUnit } from "./rollup-units.ts";
import { groupRows, rollupRows, totalRows } from "./rollups-read.ts";
import { LOG_STORE_DDL } from "./schema.ts";
import { type BatchWritten, writeBatch } from "./write.ts";

/** Options of {@link createLogStore}. */
export interface LogStoreOptions<Env = unknown> {
  /** Records older than this are deleted. @default 604800000 (7 days) */
  maxAgeMs?: number;
  /** Bytes of records one partition keeps; the oldest go first. @default 134217728 (128 MiB) */
  maxBytes?: number;
  /**
   * Where records are also delivered (e.g. `otlpDrain(...)` from
   * `@svc/server/otlp`), given the object's `env` so secrets can come from it.
   */
  drains?: (env: Env) => readonly LogDrain[];
}

/** How soon after a write the drains get their batch. */
const DRAIN_DELAY_MS = 1_000;
/** How often age-based pruning runs (it is cheap, but not free). */
const AGE_PRUNE_EVERY_MS = 60_000;

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new Error(`svc: createLogStore ${name} must be a positive integer`);
  return value;
}

/**
 * Builds the log store's Durable Object class: one partition of the app's
 * call records in SQLite, with roll-ups for metrics, error groups, retention
 * by age and size, and drains. `createWorker` writes batches to it off the
 * request path and reads it for the admin API. Export it from the worker and
 * bind it (with SQLite storage) as `SVC_LOGS`; {@link LogStore} is the
 * default-configured class.
 *
 * @example
 * ```ts
 * import { createLogStore } from "@svc/server";
 * import { otlpDrain } from "@svc/server/otlp";
 * export const LogStore = createLogStore<Env>({
 *   maxAgeMs: 3 * 24 * 3600_000,
 *   drains: (env) => [otlpDrain({ endpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT })],
 * });
 * ```
 */
export function createLogStore<Env = unknown>(
  options: LogStoreOptions<Env> = {},
): new (
  ctx: DurableObjectState,
  env: Env,
) => DurableObject & LogStoreEndpoint {
  const retention = {
    maxAgeMs: positive("maxAgeMs", options.maxAgeMs, DEFAULT_RETENTION.maxAgeMs),
    maxBytes: positive("maxBytes", options.maxBytes, DEFAULT_RETENTION.maxBytes),
  };
  return class SvcLogStore extends DurableObject implements LogStoreEndpoint {
    readonly #sql: SqlStorage;
    readonly #drains: readonly LogDrain[];
    #agePrunedAt = 0;

    constructor(ctx: DurableObjectState, env: Env) {
      super(ctx, env as never);
      this.#sql = ctx.storage.sql;
      this.#drains = options.drains?.(env) ?? [];
      ctx.blockConcurrencyWhile(async () => {
        for (const statement of LOG_STORE_DDL) this.#sql.exec(statement);
        registerDrains(this.#sql, this.#drains);
      });
    }

    async write(given: string[], options: WriteOptions = {}): Promise<void> {
      const records = parseBodies(given);
      if (records.length === 0) return;
      const bodies = storedBodies(given, records);
      const now = Date.now();
      const written = this.ctx.storage.transactionSync((): BatchWritten => {
        const batch = writeBatch(this.#sql, records, bodies);
        addStored(this.#sql, records.length, batch.bytes);
        pruneBySize(this.#sql, retention.maxBytes);
        if (now - this.#agePrunedAt >= AGE_PRUNE_EVERY_MS) {
          this.#agePrunedAt = now;
          pruneByAge(this.#sql, now, retention.maxAgeMs);
        }
        return batch;
      });
      const linesLeft =
        options.console === true &&
        printBatch(
          this.#sql,
          records,
          bodies,
          written.firstSeq,
          options.format === "text" ? "text" : "json",
        );
      if (!linesLeft && this.#drains.length === 0) return;
      // Lines past this invocation's budget print at once; drains get their batch a little later.
      const at = linesLeft ? now : now + DRAIN_DELAY_MS;
      const current = await this.ctx.storage.getAlarm();
      if (current === null || current > at) await this.ctx.storage.setAlarm(at);
    }

    override async alarm(): Promise<void> {
      const linesLeft = printPending(this.#sql);
      const next = await deliverRound(this.#sql, this.#drains, () => Date.now());
      const at = linesLeft ? Date.now() : next;
      if (at !== null) await this.ctx.storage.setAlarm(Math.max(at, Date.now() + 10));
    }

    async list(
      filters: RecordFilters,
      cursor: PartitionCursor | null,
      limit: number,
    ): Promise<StoredCall[]> {
      return listRecords(this.#sql, filters, cursor, limit);
    }

    async get(requestId: string): Promise<CallRecord | null> {
      return getRecord(this.#sql, requestId);
    }

    async after(
      afterSeq: number,
      filters: RecordFilters,
      limit: number,
    ): Promise<{ rows: StoredCall[]; lastSeq: number }> {
      return tailRecords(this.#sql, afterSeq, filters, limit);
    }

    async groups(since: number, limit: number, excludeAdmin = false): Promise<ErrorGroupRow[]> {
      return groupRows(this.#sql, since, limit, excludeAdmin);
    }

    async rollups(unit: RollupUnit, from: number, excludeAdmin = false): Promise<PackedRollups> {
      return rollupRows(this.#sql, unit, from, excludeAdmin);
    }

    async totals(): Promise<PackedTotals> {
      return totalRows(this.#sql);
    }

    async services(
      entry: Extract<EntryPoint, "cron" | "queue">,
      since: number,
    ): Promise<ServiceRow[]> {
      return serviceRows(this.#sql, entry, since);
    }

    async stats(): Promise<StoreStats> {
      return storeStats(this.#sql, storedSize(this.#sql));
    }
  };
}

/**
 * The log store with default retention (7 days, 128 MiB per partition) and
 * no drains. Bind it as `SVC_LOGS` in `wrangler.jsonc` (a SQLite class).
 *
 * @example
 * ```ts
 * export { LogStore } from "@svc/server";
 * ```
 */
export const LogStore = createLogStore();
