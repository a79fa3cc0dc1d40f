/**
 * The call record: one per call through any entry point, the same shape on
 * the console, in the log store, in the admin API and in drains. Fields are
 * an allow-list built field by field; request headers, cookies and
 * credentials have no field to land in.
 *
 * @see ../../../../docs/observability.md
 */

/** Which door a call came through. */
export type EntryPoint =
  | "rpc"
  | "rest"
  | "stream"
  | "ws"
  | "http"
  | "cron"
  | "queue"
  | "admin"
  | "scheduler";

/** Every {@link EntryPoint}, for validating filters. */
export const ENTRY_POINTS: readonly EntryPoint[] = [
  "rpc",
  "rest",
  "stream",
  "ws",
  "http",
  "cron",
  "queue",
  "admin",
  "scheduler",
];

/**
 * Who made the call. `apiKey` is the slot for API-key callers: an identity
 * whose `apiKey` claim is set is recorded as one (its key id, its owning user).
 */
export type Caller =
  | { kind: "user"; id: string }
  | { kind: "anonymous" }
  | { kind: "service"; id: string }
  | { kind: "operator"; id: string }
  | { kind: "apiKey"; id: string; userId: string | null };

/** One `console.*` line the handler wrote during the call. */
export interface ConsoleLine {
  level: "debug" | "log" | "info" | "warn" | "error";
  /** Milliseconds since the call started. */
  at: number;
  message: string;
}

/** What failed, kept server-side: never part of a client's answer. */
export interface CallFailure {
  message: string;
  stack: string | null;
}

/** Facts only a queue message has. */
export interface QueueFacts {
  queue: string;
  /** The message's id, or `null` for a batch consumed in one call (`batch: true`). */
  messageId: string | null;
  /** Messages in this call: 1, or the batch's size. */
  messages: number;
  /** 1 on first delivery (for a batch: its most-delivered message's). */
  attempt: number;
  /** The failure was the last attempt `maxRetries` allows: Cloudflare moves it to the dead-letter queue. */
  deadLettered: boolean;
}

/** Facts only a cron run has. */
export interface CronFacts {
  job: string;
  schedule: string;
}

/** One call. Times are ISO-8601 strings; durations in milliseconds. */
export interface CallRecord {
  /** Unique per call; nested `ctx.run*` calls share it (they are part of this record). */
  requestId: string;
  /** When the call started. */
  time: string;
  entry: EntryPoint;
  /**
   * The templated function path (`http.route`): `messages:list`,
   * `GET /api/items/:id`, `GET /_svc/admin/auth/*`. Never ids.
   */
  route: string;
  /** The HTTP method, or `null` for cron, queue and subscription runs. */
  method: string | null;
  shardKey: string | null;
  caller: Caller;
  /** The HTTP status (cron, queue and subscription runs: 200, or the status of their error code). */
  status: number;
  /** The svc error code of a failed call, `null` on success. */
  code: string | null;
  durationMs: number;
  bytesIn: number;
  bytesOut: number;
  /** The handler's own `console.*` lines, at most {@link RECORD_LIMITS}.lines. */
  logs: ConsoleLine[];
  /** Lines left out past the limits. */
  logsDropped: number;
  error: CallFailure | null;
  /** The validated arguments, only for procedures declared with `.log({ args: true })`. */
  args?: unknown;
  queue?: QueueFacts;
  cron?: CronFacts;
}

/** Bounds that keep one record small whatever the handler does. */
export const RECORD_LIMITS = {
  /** Console lines kept per call. */
  lines: 32,
  /** Characters kept per console line. */
  lineChars: 1024,
  /** Characters of all console lines of one call together. */
  totalLineChars: 8192,
  /** Characters of an error message. */
  errorMessageChars: 1024,
  /** Characters of a stack trace. */
  stackChars: 4096,
  /** Characters of the JSON of recorded arguments. */
  argsChars: 4096,
} as const;

/** Cuts `text` to `max` characters, marking the cut. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
