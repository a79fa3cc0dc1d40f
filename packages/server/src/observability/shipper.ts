import { plainConsole } from "./console-capture.ts";
import { printRecords } from "./console-line.ts";
import { partitionName, type RecordingPlan } from "./plan.ts";
import type { CallRecord } from "./record.ts";
import type { LogStoreEndpoint } from "./store/endpoint.ts";

/** How long records gather before one write carries them all. */
export const FLUSH_DELAY_MS = 100;
/** A batch this large is written at once. */
const MAX_BATCH = 500;
/** Records held while the store is slow; past this the oldest are dropped. */
const MAX_BUFFERED = 5_000;
/** A write that takes longer is abandoned (its records are lost, the calls are not). */
const WRITE_TIMEOUT_MS = 10_000;
/** At most one "records dropped" warning per this many milliseconds. */
const WARN_EVERY_MS = 60_000;

/**
 * Keeps work alive after the answer was sent: an `ExecutionContext` or a
 * `DurableObjectState` as it is (no closure made per call).
 */
export interface Lifetime {
  waitUntil(promise: Promise<unknown>): void;
}

async function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

/**
 * Carries records to one log store partition in batches, off the request
 * path: the first record of a batch schedules a write `FLUSH_DELAY_MS` later
 * under that request's `waitUntil`; records of later calls join it. When the
 * plan prints records on the console, the store prints each batch it takes.
 * A store that is down, slow or refusing loses records (counted, warned about
 * once a minute), never a call; their console lines are printed here
 * instead, so the console still has every call (a batch that timed out but
 * did land may print twice: at least once).
 */
export class StoreShipper {
  readonly #binding: string;
  readonly #partition: number;
  readonly #console: boolean;
  #buffer: CallRecord[] = [];
  #scheduled = false;
  #dropped = 0;
  #warnedAt = 0;

  constructor(plan: RecordingPlan & { store: string }, partition: number) {
    this.#binding = plan.store;
    this.#partition = partition;
    this.#console = plan.console;
  }

  /**
   * Queues a record; answers `false` (and keeps nothing) when `env` has no
   * store binding: the store is off, and the caller prints the record itself.
   */
  push(record: CallRecord, env: unknown, lifetime: Lifetime): boolean {
    const namespace = (env as Record<string, unknown> | undefined)?.[this.#binding] as
      | DurableObjectNamespace
      | undefined;
    if (namespace === undefined || typeof namespace?.getByName !== "function") return false;
    if (this.#buffer.length >= MAX_BUFFERED) {
      const oldest = this.#buffer.shift()!;
      this.#dropped++;
      if (this.#console) printRecords([oldest]);
    }
    this.#buffer.push(record);
    if (this.#buffer.length >= MAX_BATCH) {
      lifetime.waitUntil(this.#write(namespace, this.#take()));
      return true;
    }
    if (this.#scheduled) return true;
    this.#scheduled = true;
    lifetime.waitUntil(
      new Promise((resolve) => setTimeout(resolve, FLUSH_DELAY_MS)).then(() =>
        this.#write(namespace, this.#take()),
      ),
    );
    return true;
  }

  #take(): CallRecord[] {
    const batch = this.#buffer;
    this.#buffer = [];
    this.#scheduled = false;
    return batch;
  }

  async #write(namespace: DurableObjectNamespace, batch: CallRecord[]): Promise<void> {
    if (batch.length === 0) return;
    try {
      const store = namespace.getByName(
        partitionName(this.#partition),
      ) as unknown as LogStoreEndpoint;
      await within(store.write(batch, { console: this.#console }), WRITE_TIMEOUT_MS);
    } catch (error) {
      this.#dropped += batch.length;
      if (this.#console) printRecords(batch);
      const now = Date.now();
      if (now - this.#warnedAt >= WARN_EVERY_MS) {
        this.#warnedAt = now;
        plainConsole.warn(
          `svc: the log store (${this.#binding}) did not take ${this.#dropped} call record(s); calls are unaffected:`,
          error instanceof Error ? error.message : String(error),
        );
        this.#dropped = 0;
      }
    }
  }
}
