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
 * store call per key is in flight at a time.
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
 * const coalescer = new DecisionCoalescer(1000);
 * const send: SendBatch = (decisions) => callStore(store, name, key, { rate, decisions }, 1000);
 * const result = await coalescer.decide(objectName(name, key), { count: 1 }, send, () => storeError(name, noAnswer(1000)));
 * ```
 */
export class DecisionCoalescer {
  readonly #timeoutMs: number;
  readonly #queues = new Map<string, KeyQueue>();

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
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
    };
    queue.open = batch;
    queue.latest = batch;
    const sending = async () => {
      // Calls of the key in this turn, and while the previous batch is in flight, join this one.
      if (previous)
        await settledOrExpired(previous.done, previous.openedAt + this.#timeoutMs - now);
      else await Promise.resolve();
      if (queue.open === batch) queue.open = null;
      answer(send(batch.decisions));
      await batch.done;
      if (queue.latest === batch) this.#queues.delete(id);
    };
    waitUntil(sending());
    return batch;
  }
}
