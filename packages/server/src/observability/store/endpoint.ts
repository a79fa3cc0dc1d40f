import type { ConsoleFormat } from "../console-format.ts";
import type { CallRecord, EntryPoint } from "../record.ts";
import type { PackedRollups, PackedTotals } from "./packed-rollups.ts";

export type { RollupRow, SeriesRow, WindowRollups } from "./packed-rollups.ts";

import type { RollupUnit } from "./rollup-units.ts";

/** Which answers a status filter keeps. */
export type StatusFilter =
  | { kind: "class"; value: 2 | 3 | 4 | 5 }
  | { kind: "status"; value: number }
  | { kind: "code"; value: string }
  | { kind: "failed" };

/** Filters of a record list; every field optional. Times are epoch ms. */
export interface RecordFilters {
  route?: string;
  entry?: EntryPoint;
  status?: StatusFilter;
  /** Caller id: a user id, a service (`cron:sweep`), an operator, an API key id. */
  user?: string;
  shard?: string;
  since?: number;
  until?: number;
  /** Text in the error message or console lines (case-insensitive). */
  q?: string;
  /**
   * Leave out the admin API's own calls (entry `admin`) unless `entry` asks
   * for them: the dashboard's reads would otherwise bury the app's calls.
   */
  excludeAdmin?: boolean;
}

/**
 * Where the next page starts in one partition (rows come `time` desc, then
 * `seq` desc): after the row (`time`, `seq`) when `seq` is given, else
 * rows with time before `time` (or at it, when `inclusive`).
 */
export interface PartitionCursor {
  time: number;
  seq?: number;
  inclusive?: boolean;
}

/** A record with its place in its partition. */
export interface StoredCall {
  seq: number;
  time: number;
  record: CallRecord;
}

/** One error group as a partition knows it. */
export interface ErrorGroupRow {
  fingerprint: string;
  code: string;
  route: string;
  shape: string;
  count: number;
  firstSeen: number;
  lastSeen: number;
  sample: CallRecord;
}

/** Per-service figures (a cron job or a queue) over a window. */
export interface ServiceRow {
  service: string;
  route: string;
  runs: number;
  failures: number;
  deadLettered: number;
  last: CallRecord | null;
  lastFailure: CallRecord | null;
}

/** How full a partition is. */
export interface StoreStats {
  records: number;
  bytes: number;
  oldest: number | null;
}

/** How the store takes a batch. */
export interface WriteOptions {
  /**
   * Print each record's JSON line on the console (the worker's
   * `logs.console`): the store's Durable Object logs are the same worker's
   * Workers Logs, and the calls do not spend CPU on their lines.
   */
  console?: boolean;
  /** How those lines are written (the worker's `SVC_LOG_FORMAT`). @default "json" */
  format?: ConsoleFormat;
}

/**
 * The log store's methods over JS RPC. The worker writes batches and reads
 * with these; each call touches one partition, and the worker merges.
 */
export interface LogStoreEndpoint {
  /**
   * Stores a batch of records, each as its JSON text (`JSON.stringify(record)`,
   * see {@link recordBodies}): an array of strings crosses JS RPC for about
   * half the CPU the same records cost as objects, and the store keeps each
   * text as the record's stored body instead of making it again. A worker's
   * calls send their records' facts instead (`RecordFacts`, an array's JSON
   * text, cheaper to make on a call's path): the store makes those records.
   */
  write(bodies: string[], options?: WriteOptions): Promise<void>;
  list(
    filters: RecordFilters,
    cursor: PartitionCursor | null,
    limit: number,
  ): Promise<StoredCall[]>;
  get(requestId: string): Promise<CallRecord | null>;
  /** Records written after `afterSeq`, oldest first (not `tail`: workerd reserves that name for tail handlers). */
  after(
    afterSeq: number,
    filters: RecordFilters,
    limit: number,
  ): Promise<{ rows: StoredCall[]; lastSeq: number }>;
  /** Error groups last seen since `since`; with `excludeAdmin`, none whose sample is an admin call. */
  groups(since: number, limit: number, excludeAdmin?: boolean): Promise<ErrorGroupRow[]>;
  /**
   * The roll-ups of `unit`'s buckets from `from` on, packed (unpack with
   * `unpackRollups`); with `excludeAdmin`, without the admin API's calls.
   */
  rollups(unit: RollupUnit, from: number, excludeAdmin?: boolean): Promise<PackedRollups>;
  /** The never-pruned totals, packed (unpack with `unpackTotals`). */
  totals(): Promise<PackedTotals>;
  services(entry: "cron" | "queue", since: number): Promise<ServiceRow[]>;
  stats(): Promise<StoreStats>;
}
