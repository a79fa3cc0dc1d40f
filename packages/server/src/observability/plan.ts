/**
 * Where call records go, as configured on `createWorker({ logs })`.
 *
 * @see ../../../../docs/observability.md
 */
export interface LogsOptions {
  /**
   * One JSON line per call on the console, which Workers Logs and
   * `wrangler tail` pick up with no setup. The log store prints the lines of
   * the batches it takes (a call spends no CPU on its line); the worker
   * prints them where no store is bound or the store did not take a batch.
   * @default true
   */
  console?: boolean;
  /**
   * The binding of the log store Durable Object (the `LogStore` class, or
   * one made by `createLogStore`), or `false` for no store. When `env` has no
   * such binding the store is simply off.
   * @default "SVC_LOGS"
   */
  store?: string | false;
  /**
   * How many store objects records are spread over. Writers pick one each
   * (a worker isolate at random, a shard by its key); readers ask all and
   * merge. Only ever raise it: lowering it hides the records and totals of
   * the dropped partitions.
   * @default 4
   */
  partitions?: number;
}

/** The resolved {@link LogsOptions}: plain data, so it can travel to a shard with a socket grant. */
export interface RecordingPlan {
  console: boolean;
  store: string | null;
  partitions: number;
}

/** The binding name the log store gets when `logs.store` names none. */
export const DEFAULT_LOG_STORE_BINDING = "SVC_LOGS";
/** Store partitions when `logs.partitions` is not given. */
export const DEFAULT_LOG_PARTITIONS = 4;

/**
 * Resolves `createWorker`'s `logs` option, refusing malformed values at
 * start; `false` turns recording off (`null`).
 *
 * @example recordingPlan(undefined) // { console: true, store: "SVC_LOGS", partitions: 4 }
 */
export function recordingPlan(option: LogsOptions | false | undefined): RecordingPlan | null {
  if (option === false) return null;
  if (option !== undefined && (typeof option !== "object" || option === null)) {
    throw new Error("svc: logs must be an object ({ console, store, partitions }) or false");
  }
  const partitions = option?.partitions ?? DEFAULT_LOG_PARTITIONS;
  if (!Number.isInteger(partitions) || partitions < 1 || partitions > 256) {
    throw new Error("svc: logs.partitions must be an integer from 1 to 256");
  }
  const store = option?.store ?? DEFAULT_LOG_STORE_BINDING;
  if (store !== false && (typeof store !== "string" || store === "")) {
    throw new Error("svc: logs.store must be the name of the log store's binding, or false");
  }
  return { console: option?.console ?? true, store: store === false ? null : store, partitions };
}

/** The name of a store partition's Durable Object. */
export function partitionName(partition: number): string {
  return `svc-logs-${partition}`;
}
