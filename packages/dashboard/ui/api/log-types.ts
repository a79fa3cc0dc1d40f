/**
 * The shapes of the logs admin API (`/_svc/admin/logs*`), as
 * docs/admin-api.md ("Logs and metrics") documents them.
 */

/** Which door a call came through. */
export type EntryPoint = "rpc" | "rest" | "stream" | "ws" | "http" | "cron" | "queue" | "admin";

/** Every {@link EntryPoint}, in the order the filter offers them. */
export const ENTRY_POINTS: readonly EntryPoint[] = [
  "rpc",
  "rest",
  "stream",
  "ws",
  "http",
  "cron",
  "queue",
  "admin",
];

/** Who made a call. */
export type Caller =
  | { kind: "user"; id: string }
  | { kind: "anonymous" }
  | { kind: "service"; id: string }
  | { kind: "operator"; id: string }
  | { kind: "apiKey"; id: string; userId: string | null };

/** One console line of a call. */
export interface ConsoleLine {
  level: "debug" | "log" | "info" | "warn" | "error";
  at: number;
  message: string;
}

/** One call. */
export interface CallRecord {
  requestId: string;
  time: string;
  entry: EntryPoint;
  route: string;
  method: string | null;
  shardKey: string | null;
  caller: Caller;
  status: number;
  code: string | null;
  durationMs: number;
  bytesIn: number;
  bytesOut: number;
  logs: ConsoleLine[];
  logsDropped: number;
  error: { message: string; stack: string | null } | null;
  args?: unknown;
  queue?: {
    queue: string;
    messageId: string | null;
    messages: number;
    attempt: number;
    deadLettered: boolean;
  };
  cron?: { job: string; schedule: string };
}

/** A page of records. */
export interface RecordPage {
  records: CallRecord[];
  cursor: string | null;
}

/** Errors of one code, function and message shape. */
export interface ErrorGroup {
  code: string;
  function: string;
  shape: string;
  count: number;
  firstSeen: string;
  lastSeen: string;
  sample: CallRecord;
}

/** The windows metrics come in. */
export type MetricsWindow = "1h" | "24h" | "7d";

/** One function through one entry point over a window. */
export interface FunctionMetrics {
  function: string;
  entry: EntryPoint;
  calls: number;
  errors: number;
  errorsByCode: Record<string, number>;
  meanMs: number | null;
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
  series: { time: string; calls: number; errors: number }[];
}

/** `GET logs/metrics`. */
export interface MetricsAnswer {
  window: MetricsWindow;
  from: string;
  to: string;
  stepSeconds: number;
  functions: FunctionMetrics[];
}

/** One cron job's runs. */
export interface CronJobView {
  job: string;
  schedule: string | null;
  function: string;
  runs: number;
  failures: number;
  lastRun: CallRecord | null;
  lastFailure: CallRecord | null;
}

/** One queue's messages. */
export interface QueueView {
  queue: string;
  function: string;
  runs: number;
  failures: number;
  deadLettered: number;
  lastRun: CallRecord | null;
  lastFailure: CallRecord | null;
}
