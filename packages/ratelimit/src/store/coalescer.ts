import { waitUntil } from "cloudflare:workers";
import type { RateLimitResult } from "../algorithms/result.ts";
import { settledOrExpired, within } from "./deadlines.ts";
import type { BatchedDecision } from "./protocol.ts";

/**
 * Most decisions one store call carries. More start the next batch; the bound
 * keeps one call's message, and the time the store spends on it, small.
 *
 * @example
 * ```ts
 * // 100 concurrent calls of one key: two store calls, of 64 and 36 decisions.
 * ```
 */
export const MAX_BATCH = 64;

/**
 * The default least time (ms) between two store calls of one key from one
 * isolate (`coalesceMs` of `createRateLimiter`). A store that answers faster
 * than this (one in the same workerd, as in the gates bench) would otherwise
 * be asked again at once with the two or three calls that came meanwhile;
 * waiting out the rest of the interval lets more join: in the gates bench,
 * about 120 store calls per 1,000 requests instead of 330. A store further away
 * answers slower than this, and the wait is then nothing.
 *
 * @example
 * ```ts
 * createRateLimiter({ store: "RATE_LIMIT", rates, coalesceMs: DEFAULT_COALESCE_MS });
 * ```
 */
export const DEFAULT_COALESCE_MS = 3;

/** Sends decisions of one key to its store in one call and answers their results, in order. */
export type SendBatch = (decisions: BatchedDecision[]) => Promise<RateLimitResult[]>;

/** Calls of one key going to the store together. */
interface Batch {
  decisions: BatchedDecision[];
  /** The store's results, in order; made in the request of the call that sends the batch. */
  answered: Promise<RateLimitResult[]>;
  /** Settles (never rejects) once the store answered or failed: what the next batch waits for. */
  done: Promise<void>;
  /** When the batch was opened (ms). */
  openedAt: number;
  /** When the batch left for the store (ms); `Infinity` until then. */
  sentAt: number;
}

/** One key's batches: the one taking calls, and the latest one sent or waiting to be. */
interface KeyQueue {
  open: Batch | null;
  latest: Batch | null;
}

/**
 * Coalesces concurrent exact decisions of one isolate: calls of a key issued
 * in the same event-loop turn, or while a store call of that key is in
 * flight, go to the store as one call carrying all of them (at most
 * {@link MAX_BATCH}), which the store decides in order with one write. One
 * store call per key is in flight at a time, and the next leaves no sooner
 * than `intervalMs` after the one before it (see {@link DEFAULT_COALESCE_MS}):
 * a key called now and then is sent at once, a busy one in batches.
 *
 * Workers tie I/O to the request that started it and cancel a request's
 * continuations when it ends, so: the first call of a batch sends it, from
 * its own request (kept alive by `waitUntil` until the store answered, even
 * if that request is cancelled meanwhile); the others await that call's
 * answer, a promise of another request, which the runtime lets a request
 * await; and every call keeps its own timer, rejecting after `timeoutMs`
 * whoever sends its batch. A batch waits for the one before it at most
 * `timeoutMs` after that one opened, so one lost call cannot stall a key.
 *
 * @example
 * ```ts
 * const coalescer = new DecisionCoalescer(1000, DEFAULT_COALESCE_MS);
 * const send: SendBatch = (decisions) => callStore(store, name, key, { rate, decisions }, 1000);
 * const result = await coalescer.decide(objectName(name, key), { count: 1 }, send, () => storeError(name, noAnswer(1000)));
 * ```
 */
export class DecisionCoalescer {
  readonly #timeoutMs: number;
  readonly #intervalMs: number;
  readonly #queues = new Map<string, KeyQueue>();

  constructor(timeoutMs: number, intervalMs = DEFAULT_COALESCE_MS) {
    this.#timeoutMs = timeoutMs;
    this.#intervalMs = intervalMs;
  }

  /**
   * Decides one call of the store object `id`, together with the other calls
   * of it that are waiting. Rejects with `timeoutError()` after `timeoutMs`
   * without a result, and with the store call's error when it fails.
   */
  decide(
    id: string,
    decision: BatchedDecision,
    send: SendBatch,
    timeoutError: () => Error,
  ): Promise<RateLimitResult> {
    const queue = this.#queues.get(id) ?? { open: null, latest: null };
    this.#queues.set(id, queue);
    const now = Date.now();
    const { open } = queue;
    if (open && open.decisions.length < MAX_BATCH && now - open.openedAt < this.#timeoutMs) {
      const index = open.decisions.push(decision) - 1;
      return within(
        open.answered.then((results) => results[index]!),
        this.#timeoutMs,
        timeoutError,
      );
    }
    const batch = this.#send(id, queue, decision, send, now);
    return within(
      batch.answered.then((results) => results[0]!),
      this.#timeoutMs,
      timeoutError,
    );
  }

  /** Opens a batch led by this call and sends it once the batch before it is answered. */
  #send(id: string, queue: KeyQueue, decision: BatchedDecision, send: SendBatch, now: number) {
    const previous = queue.latest;
    let answer: (results: Promise<RateLimitResult[]>) => void = () => {};
    const answered = new Promise<RateLimitResult[]>((resolve) => {
      answer = resolve;
    });
    const batch: Batch = {
      decisions: [decision],
      answered,
      done: answered.then(
        () => undefined,
        () => undefined,
      ),
      openedAt: now,
      sentAt: Number.POSITIVE_INFINITY,
    };
    queue.open = batch;
    queue.latest = batch;
    const sending = async () => {
      // Calls of the key in this turn, and while the previous batch is in flight, join this one.
      if (previous) {
        await settledOrExpired(previous.done, previous.openedAt + this.#timeoutMs - now);
        // At most one store call of the key every `intervalMs`: the calls of the pause join too.
        // (A previous batch not sent yet, having waited out its own predecessor, makes no pause.)
        const pause = Number.isFinite(previous.sentAt)
          ? Math.min(this.#intervalMs, previous.sentAt + this.#intervalMs - Date.now())
          : 0;
        if (pause > 0) await scheduler.wait(pause);
      } else await Promise.resolve();
      if (queue.open === batch) queue.open = null;
      batch.sentAt = Date.now();
      answer(send(batch.decisions));
      await batch.done;
      // The key is forgotten only once its interval is over, so a call that comes before then waits.
      const rest = batch.sentAt + this.#intervalMs - Date.now();
      if (rest > 0) await scheduler.wait(rest);
      if (queue.latest === batch) this.#queues.delete(id);
    };
    waitUntil(sending());
    return batch;
  }
}
