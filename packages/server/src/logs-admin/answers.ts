/**
 * The answers of the logs admin routes, as types only: the route
 * declarations, the handlers and the dashboard share them, and a browser
 * bundle can import them with nothing of the server inside.
 *
 * @see ../../../../../docs/admin-api.md
 */
import type { CallRecord, EntryPoint } from "../observability/record.ts";

/** `1h`, `24h` or `7d`. */
export type MetricsWindow = "1h" | "24h" | "7d";

/** One point of a function's sparkline. */
export interface SeriesPoint {
  time: string;
  calls: number;
  errors: number;
}

/** One function through one entry point over the window. */
export interface FunctionMetrics {
  function: string;
  entry: EntryPoint;
  calls: number;
  errors: number;
  /** Failed calls by error code. */
  errorsByCode: Record<string, number>;
  meanMs: number | null;
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
  /** Calls and errors per step (1 min, 1 h or 6 h), oldest first, one point per step. */
  series: SeriesPoint[];
}

/** What `GET /_svc/admin/logs/metrics` answers. */
export interface MetricsAnswer {
  window: MetricsWindow;
  from: string;
  to: string;
  stepSeconds: number;
  functions: FunctionMetrics[];
  /** Every function together over the window: the app's health at a glance (the Overview's). */
  overall: { calls: number; errors: number; p95Ms: number | null };
}

/** One error group as the admin API answers it. */
export interface ErrorGroupView {
  code: string;
  function: string;
  shape: string;
  count: number;
  firstSeen: string;
  lastSeen: string;
  sample: CallRecord;
}

/** One cron job as the jobs view shows it. */
export interface CronJobView {
  job: string;
  /** The cron expression; null for a job that ran but is no longer declared. */
  schedule: string | null;
  /** The schedule in words, in UTC (`"At 03:00 UTC, every day"`); null when not declared. */
  summary: string | null;
  /** When Cloudflare next fires it (ISO-8601, UTC); null when not declared or not computed (`L`, `W`, `#`). */
  nextRun: string | null;
  function: string;
  runs: number;
  failures: number;
  lastRun: CallRecord | null;
  lastFailure: CallRecord | null;
}

/** What running a cron job now answers. */
export interface CronRunAnswer {
  job: string;
  /** The shard it ran in. */
  shardKey: string;
  /** How long the run took. */
  durationMs: number;
}

/** One queue as the jobs view shows it. */
export interface QueueView {
  queue: string;
  function: string;
  /** Consumer calls (one per message, or per batch with `batch: true`). */
  runs: number;
  failures: number;
  /** Failures on a message's last attempt: what Cloudflare moved to the dead-letter queue. */
  deadLettered: number;
  lastRun: CallRecord | null;
  lastFailure: CallRecord | null;
  /**
   * Messages waiting, as the queue's producer binding reports them
   * (`Queue.metrics()`); null when the queue has no producer binding or the
   * runtime does not report it.
   */
  backlog: QueueBacklog | null;
}

/** A queue's backlog, as `Queue.metrics()` reports it. */
export interface QueueBacklog {
  messages: number;
  bytes: number;
  /** When the oldest waiting message was sent (ISO-8601); null when none waits. */
  oldestAt: string | null;
}
