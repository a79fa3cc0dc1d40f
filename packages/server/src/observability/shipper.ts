import { endpointStub } from "../model/endpoint-stub.ts";
import { type RecordFacts, recordOf } from "./build-record.ts";
import { plainConsole } from "./console-capture.ts";
import { type ConsoleFormat, consoleFormatOf } from "./console-format.ts";
import { printRecords } from "./console-line.ts";
import { partitionName, type RecordingPlan } from "./plan.ts";
import { RareWarning } from "./rare-warning.ts";
import type { CallRecord } from "./record.ts";
import type { LogStoreEndpoint } from "./store/endpoint.ts";

/** How long records gather before one write carries them all, while calls are few. */
export const FLUSH_DELAY_MS = 100;
/**
 * The longest records gather while calls are many: each write costs the
 * worker a fixed share of CPU whatever its size, so under load fewer, fuller
 * batches leave more of the isolate to calls.
 */
export const BUSY_FLUSH_DELAY_MS = 800;
/** A batch of at least this many records after its wait doubles the next wait. */
const BUSY_BATCH = 50;
/** A batch this large is written at once. */
const MAX_BATCH = 500;
/** Records held while the store is slow; past this the oldest are dropped. */
const MAX_BUFFERED = 5_000;
/** A write that takes longer is abandoned (its records are lost, the calls are not). */
const WRITE_TIMEOUT_MS = 10_000;

/** What the shipper carries to the store: a record, or a record's facts. */
type Shipped = CallRecord | RecordFacts;

/** The record of what the shipper carries. */
function recordIn(item: Shipped): CallRecord {
  return Array.isArray(item) ? recordOf(item) : item;
}

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
 * A wait that can end early: `done` answers `true` when the time ran out,
 * `false` when `end` came first. `end` runs in another request than the one
 * that set the timer, which may not clear it (a timer belongs to its
 * request), so the timer runs out unheard.
 */
interface Wait {
  done: Promise<boolean>;
  end(): void;
}

function waitFor(ms: number): Wait {
  let end = () => {};
  const done = new Promise<boolean>((resolve) => {
    setTimeout(() => resolve(true), ms);
    end = () => resolve(false);
  });
  return { done, end };
}

/**
 * Carries records to one log store partition in batches, off the request
 * path: the first record of a batch schedules its write under that request's
 * `waitUntil`; records of later calls join it. The wait is
 * {@link FLUSH_DELAY_MS} while calls are few; each batch of
 * {@link BUSY_BATCH} or more doubles it, up to {@link BUSY_FLUSH_DELAY_MS},
 * and a quieter one sets it back. A batch of {@link MAX_BATCH} is written at
 * once, and its wait ends with it, so the request holding the wait is not
 * kept alive for nothing. A busy isolate thus writes one batch per few
 * hundred calls, and a quiet one still shows a call within about 100 ms.
 * When the plan prints records on the console, the store prints each batch
 * it takes. A batch goes out as its records' JSON text, made as it is sent
 * (off the request path): text crosses JS RPC for about half the CPU the same
 * records cost as objects. A call's recorder queues the record's facts
 * (`RecordFacts`), not the record: their text is an array's, and the store
 * makes the record from them.
 * A store that is down, slow or refusing loses records (counted, warned about
 * once a minute), never a call; their console lines are printed here
 * instead, so the console still has every call (a batch that timed out but
 * did land may print twice: at least once).
 */
export class StoreShipper {
  readonly #binding: string;
  readonly #partition: number;
  readonly #console: boolean;
  /** The console format the latest call's `env` asked for (one worker, one setting). */
  #format: ConsoleFormat = "json";
  #buffer: Shipped[] = [];
  /** The current batch's wait, until the batch is taken. */
  #wait: Wait | null = null;
  #delay = FLUSH_DELAY_MS;
  #dropped = 0;
  /** The "records dropped" warning: once a minute per isolate. */
  readonly #storeDown = new RareWarning({
    print: (line, reason) => plainConsole.warn(line, reason),
  });

  constructor(plan: RecordingPlan & { store: string }, partition: number) {
    this.#binding = plan.store;
    this.#partition = partition;
    this.#console = plan.console;
  }

  /**
   * Queues a record, or its facts (what a call's recorder sends: cheaper to
   * make on the call's path); answers `false` (and keeps nothing) when `env`
   * has no store binding: the store is off, and the caller prints the record
   * itself.
   */
  push(record: Shipped, env: unknown, lifetime: Lifetime): boolean {
    const namespace = (env as Record<string, unknown> | undefined)?.[this.#binding] as
      | DurableObjectNamespace
      | undefined;
    if (namespace === undefined || typeof namespace?.getByName !== "function") return false;
    this.#format = consoleFormatOf(env);
    if (this.#buffer.length >= MAX_BUFFERED) {
      const oldest = this.#buffer.shift()!;
      this.#dropped++;
      if (this.#console) printRecords([recordIn(oldest)], this.#format);
    }
    this.#buffer.push(record);
    if (this.#buffer.length >= MAX_BATCH) {
      this.#wait?.end();
      lifetime.waitUntil(this.#write(namespace, this.#take()));
      return true;
    }
    if (this.#wait !== null) return true;
    const wait = waitFor(this.#delay);
    this.#wait = wait;
    lifetime.waitUntil(
      wait.done.then((expired) => {
        if (!expired) return;
        const records = this.#take();
        this.#delay =
          records.length >= BUSY_BATCH
            ? Math.min(this.#delay * 2, BUSY_FLUSH_DELAY_MS)
            : FLUSH_DELAY_MS;
        return this.#write(namespace, records);
      }),
    );
    return true;
  }

  #take(): Shipped[] {
    const batch = this.#buffer;
    this.#buffer = [];
    this.#wait = null;
    return batch;
  }

  async #write(namespace: DurableObjectNamespace, batch: Shipped[]): Promise<void> {
    if (batch.length === 0) return;
    try {
      const store = endpointStub<LogStoreEndpoint>(namespace, partitionName(this.#partition));
      const options = { console: this.#console, format: this.#format };
      const bodies = batch.map((item) => JSON.stringify(item));
      await within(store.write(bodies, options), WRITE_TIMEOUT_MS);
    } catch (error) {
      this.#dropped += batch.length;
      if (this.#console) printRecords(batch.map(recordIn), this.#format);
      const line = `svc: the log store (${this.#binding}) did not take ${this.#dropped} call record(s); calls are unaffected`;
      const reason = error instanceof Error ? error.message : String(error);
      if (this.#storeDown.report(line, reason)) this.#dropped = 0;
    }
  }
}
