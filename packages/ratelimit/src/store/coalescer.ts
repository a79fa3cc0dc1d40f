import { waitUntil } from "cloudflare:workers";
import type { RateLimitResult } from "../algorithms/result.ts";
import type { Rate } from "../rates.ts";
import { within } from "./deadlines.ts";
import { readWhenSettled, whenSettled } from "./own-timers.ts";
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
 * waiting out the rest of the interval lets more join. In the gates bench
 * (16 connections, one key, a store in the same workerd; both intervals in
 * one 27-round run): 96 store calls per 1,000 requests with 5 ms against
 * 125 with 3 ms (330 with none), +24.8 % CPU per request against +26.6 %,
 * at a median latency of 9 ms against 8 (6 ms without the gate). Longer is
 * not cheaper: 10 ms measured +28.2 % against +24.5 % for 5 ms (one 9-round
 * run, 2026-12-06), 64 store calls per 1,000 requests against 76, 11 ms
 * median latency against 6, since callers that wait longer call less often.
 * A store further away answers slower than this, and the wait is then nothing.
 *
 * @example
 * ```ts
 * createRateLimiter({ store: "RATE_LIMIT", rates, coalesceMs: DEFAULT_COALESCE_MS });
 * ```
 */
export const DEFAULT_COALESCE_MS = 5;

/** The key of one rate whose decisions a batch carries: what its store call needs besides them. */
export interface BatchKey {
  readonly name: string;
  readonly key: string;
  readonly rate: Rate;
}

/**
 * Sends decisions of one key to its store in one call and answers their
 * results, in order. It needs no timeout: every call of the batch waits for
 * it on its own clock.
 */
export type SendBatch = (
  target: BatchKey,
  decisions: BatchedDecision[],
) => Promise<RateLimitResult[]>;

/**
 * How the calls of a batch wait for its store call's answer.
 *
 * - `"own timers"`: each call reads the answer on timers of its own request
 *   ({@link readWhenSettled}): a worker's requests may not await each other's
 *   I/O.
 * - `"shared promise"`: every call awaits the batch's one promise. Only
 *   inside one Durable Object, whose requests share its I/O: a wake on a
 *   timer costs workerd about 30 µs of CPU, and there each is an event of the
 *   object (measured +111 % CPU per request against +11 % for this,
 *   BENCHMARKS.md section 1a).
 *
 * @example
 * ```ts
 * const waits: CoalescedWaits = inDurableObject ? "shared promise" : "own timers";
 * ```
 */
export type CoalescedWaits = "own timers" | "shared promise";

/** Calls of one key going to the store together. */
interface Batch {
  /** The key's queue, whose `late` error a call gets when its batch did not settle in time. */
  queue: KeyQueue;
  decisions: BatchedDecision[];
  /** The store's results, in order, once it answered. */
  results: RateLimitResult[] | undefined;
  /** Why the store call failed, once it did. */
  failure: unknown;
  /** True once the store answered or failed: what the calls of this batch and the next batch look at. */
  settled: boolean;
  /** When the batch was opened (ms). */
  openedAt: number;
  /** When the batch left for the store (ms); `Infinity` until then. */
  sentAt: number;
  /** When its answer is expected (ms): when its calls first look. */
  expectedAt: number;
  /**
   * Under `"shared promise"` waits: settles once the batch did, or rejects
   * `timeoutMs` after it opened. Every call of the batch, and the next
   * batch, awaits it; a call that joined later waits on to its own deadline
   * when it rejects ({@link DecisionCoalescer}'s `#waitOnToOwnDeadline`).
   * `undefined` under `"own timers"`.
   */
  answered: Promise<void> | undefined;
  /** Settles once the batch did (its `#send`, which never rejects); set as it is sent. */
  sent: Promise<void> | undefined;
}

/** One key's batches: the one taking calls, and the latest one sent or waiting to be. */
interface KeyQueue extends BatchKey {
  open: Batch | null;
  latest: Batch | null;
  /** The error of a call whose batch was not answered within the timeout (made when needed). */
  late: () => Error;
}

/** Keys a {@link DecisionCoalescer} holds before it drops those at rest (see its `#newQueue`). */
const SWEEP_KEYS = 1_000;

/** Weight of the newest store call in {@link DecisionCoalescer}'s running round-trip estimates. */
const ROUND_TRIP_WEIGHT = 0.2;

/**
 * How much later (ms) than the estimate a waiting call first looks for its
 * batch's answer. Each look is a timer that wakes the call's request, and a
 * wake costs workerd 28 to 38 µs of CPU (BENCHMARKS.md section 2: 2,000
 * awaited 0 ms timers in one request), 6 to 8 % of a whole REST read.
 * Without the margin, 46 % of the waiting calls in the gates bench looked
 * too early (the batch leaves later than estimated when its own wait for the
 * batch before it overruns) and looked again a millisecond later: 1.37 looks
 * per request. With 1 ms, 0.98 per request (91 % find the answer at their
 * first look), the median latency within a millisecond of before.
 */
const FIRST_LOOK_MARGIN_MS = 1;

/**
 * Coalesces concurrent exact decisions of one isolate: calls of a key issued
 * in the same event-loop turn, or while a store call of that key is in
 * flight, go to the store as one call carrying all of them (at most
 * {@link MAX_BATCH}), which the store decides in order with one write. One
 * store call per key is in flight at a time, and the next leaves no sooner
 * than `intervalMs` after the one before it (see {@link DEFAULT_COALESCE_MS}):
 * a key called now and then is sent at once, a busy one in batches.
 *
 * Workers tie I/O to the request that started it, so no call waits on a
 * promise of another request (see {@link whenSettled}): the first call of a
 * batch sends it from its own request (kept alive by `waitUntil` until the
 * store answered, even if that request is cancelled meanwhile) and writes the
 * answer into the batch; the others, and the next batch's sender, read it
 * from there on timers of their own, first when the answer is expected (the
 * store's running round trip plus twice its spread, plus a millisecond), then
 * every millisecond.
 * Every call rejects after its own `timeoutMs` whoever sends its batch: the
 * first call on the one timer of its batch (the store call has none of its
 * own: each timer a request makes costs workerd far more than clearing it
 * saves, BENCHMARKS.md section 1a), the others on the timers they wait with.
 * A batch waits for the one before it at most `timeoutMs` after that one
 * opened, so one lost call cannot stall a key.
 *
 * Inside one Durable Object (`waits` `"shared promise"`) the calls await
 * their batch's one promise instead, bounded by one timer per batch: the
 * object's requests share its I/O, and a timer per call would be an event of
 * the object each (see {@link CoalescedWaits}). The batch's timer runs from
 * its opening; a call that joined later and is still within its own
 * `timeoutMs` when it fires waits on, on a timer of its own, to that deadline.
 *
 * Per call it builds no key string: the keys of a rate are
 * found through two map lookups, and what sending needs (the store call, the
 * timeout's error) is given once, to the constructor.
 *
 * @example
 * ```ts
 * const send: SendBatch = ({ name, key, rate }, decisions) =>
 *   callStore(store, name, key, { rate, decisions });
 * const late = (name: string) => storeError(name, noAnswer(1000));
 * const coalescer = new DecisionCoalescer(1000, DEFAULT_COALESCE_MS, send, late, "own timers");
 * const result = await coalescer.decide("api", ip, rate, { count: 1 });
 * ```
 */
export class DecisionCoalescer {
  readonly #timeoutMs: number;
  readonly #intervalMs: number;
  readonly #sendBatch: SendBatch;
  readonly #timeoutError: (name: string) => Error;
  readonly #sharedWaits: boolean;
  /** Per rate name, then per key: no string is built per call to find a key's queue. */
  readonly #queues = new Map<string, Map<string, KeyQueue>>();
  /** Keys held, over every name. */
  #size = 0;
  /** Running mean (ms) of a store call's round trip, from the calls answered so far. */
  #roundTripMs = 1;
  /** Running mean deviation (ms) of a store call's round trip from {@link #roundTripMs}. */
  #roundTripSpreadMs = 0;
  /** Keys at which {@link #newQueue} next drops those at rest. */
  #sweepAt = SWEEP_KEYS;

  constructor(
    timeoutMs: number,
    intervalMs: number,
    send: SendBatch,
    timeoutError: (name: string) => Error,
    waits: CoalescedWaits,
  ) {
    this.#timeoutMs = timeoutMs;
    this.#intervalMs = intervalMs;
    this.#sendBatch = send;
    this.#timeoutError = timeoutError;
    this.#sharedWaits = waits === "shared promise";
  }

  /**
   * Decides one call of `key` under rate `name`, together with the other calls
   * of it that are waiting. Rejects with the constructor's `timeoutError`
   * after `timeoutMs` without a result, and with the store call's error when
   * it fails.
   */
  decide(
    name: string,
    key: string,
    rate: Rate,
    decision: BatchedDecision,
  ): Promise<RateLimitResult> {
    const now = Date.now();
    const queue = this.#queues.get(name)?.get(key) ?? this.#newQueue(name, key, rate, now);
    const { open } = queue;
    if (open && open.decisions.length < MAX_BATCH && now - open.openedAt < this.#timeoutMs) {
      const index = open.decisions.push(decision) - 1;
      // The batch's deadline (from its opening) comes first; this call's own may be later.
      if (open.answered !== undefined)
        return open.answered.then(
          () => resultOf(open, index, true),
          () => this.#waitOnToOwnDeadline(open, index, now),
        );
      return readWhenSettled(open, index, open.expectedAt - now, now + this.#timeoutMs, resultOf);
    }
    const batch: Batch = {
      queue,
      decisions: [decision],
      results: undefined,
      failure: undefined,
      settled: false,
      openedAt: now,
      sentAt: Number.POSITIVE_INFINITY,
      expectedAt: now,
      answered: undefined,
      sent: undefined,
    };
    const sent = this.#send(queue, batch);
    batch.sent = sent;
    if (this.#sharedWaits) {
      batch.answered = within(sent, this.#timeoutMs, queue.late);
      return batch.answered.then(() => resultOf(batch, 0, true));
    }
    waitUntil(sent);
    // The batch's later calls keep their own clocks, and its first call this one.
    return within(sent, this.#timeoutMs, queue.late).then(() => resultOf(batch, 0, true));
  }

  /**
   * A call that joined `batch` at `joinedAt`, once the batch's own deadline
   * (`timeoutMs` from its opening) passed unanswered: it waits on for the
   * answer until its own deadline, `timeoutMs` from its start, as every call
   * of the isolate's coalescer does. Only this slow path makes a timer per
   * call inside a Durable Object.
   */
  #waitOnToOwnDeadline(batch: Batch, index: number, joinedAt: number): Promise<RateLimitResult> {
    if (batch.settled) return Promise.resolve(resultOf(batch, index, true));
    const left = joinedAt + this.#timeoutMs - Date.now();
    if (left <= 0 || batch.sent === undefined) return Promise.reject(batch.queue.late());
    return within(batch.sent, left, batch.queue.late).then(() => resultOf(batch, index, true));
  }

  /**
   * Sends `batch` once the batch before it is answered and the key's interval
   * is over, then settles it: with the store's results, or with why there are
   * none. Never rejects.
   */
  async #send(queue: KeyQueue, batch: Batch): Promise<void> {
    const previous = queue.latest;
    queue.open = batch;
    queue.latest = batch;
    const sendingAt = this.#sendingAt(previous, batch.openedAt);
    batch.expectedAt = sendingAt + this.#answerAfterMs();
    // Calls of the key in this turn, and while the previous batch is in flight, join this one.
    if (previous) {
      // Awaited in one Durable Object; else first looked at when it can leave: the previous
      // answer in and the interval over (one wake-up).
      if (previous.answered !== undefined) await previous.answered.then(ignore, ignore);
      else await whenSettled(previous, sendingAt - Date.now(), previous.openedAt + this.#timeoutMs);
      // At most one store call of the key every `intervalMs`: the calls of the pause join too.
      // (A previous batch not sent yet, having waited out its own predecessor, makes no pause.)
      const pause = Number.isFinite(previous.sentAt)
        ? Math.min(this.#intervalMs, previous.sentAt + this.#intervalMs - Date.now())
        : 0;
      if (pause > 0) await scheduler.wait(pause);
    } else await Promise.resolve();
    if (queue.open === batch) queue.open = null;
    batch.sentAt = Date.now();
    batch.expectedAt = batch.sentAt + this.#answerAfterMs();
    try {
      batch.results = await this.#sendBatch(queue, batch.decisions);
    } catch (error) {
      batch.failure = error;
    }
    batch.settled = true;
    const deviation = Date.now() - batch.sentAt - this.#roundTripMs;
    this.#roundTripMs += deviation * ROUND_TRIP_WEIGHT;
    this.#roundTripSpreadMs += (Math.abs(deviation) - this.#roundTripSpreadMs) * ROUND_TRIP_WEIGHT;
  }

  /**
   * How long after a batch leaves its calls first look for the answer: the
   * round trip's running mean plus twice its spread, as TCP sets its
   * retransmission timer, and {@link FIRST_LOOK_MARGIN_MS}, so most calls
   * find the answer at their first look (each look is a timer that wakes the
   * request) at the cost of a little latency.
   */
  #answerAfterMs(): number {
    return this.#roundTripMs + 2 * this.#roundTripSpreadMs + FIRST_LOOK_MARGIN_MS;
  }

  /** When a batch opened at `now` after `previous` should leave for the store (ms). */
  #sendingAt(previous: Batch | null, now: number): number {
    if (!previous) return now;
    if (!Number.isFinite(previous.sentAt)) return Math.max(now, previous.expectedAt);
    return Math.max(now, previous.expectedAt, previous.sentAt + this.#intervalMs);
  }

  /**
   * A new key's queue. Keys at rest (no batch open or in flight, the last
   * store call's interval over) are dropped first once there are
   * {@link SWEEP_KEYS} or more (then twice as many as are left): no timer per
   * store call to forget its key (each timer wakes its request), and a limiter
   * that sees many keys keeps only the busy ones.
   */
  #newQueue(name: string, key: string, rate: Rate, now: number): KeyQueue {
    if (this.#size >= this.#sweepAt) {
      for (const [rateName, keys] of this.#queues) {
        for (const [restingKey, { open, latest }] of keys)
          if (!open && (!latest || (latest.settled && latest.sentAt + this.#intervalMs <= now))) {
            keys.delete(restingKey);
            this.#size--;
          }
        if (keys.size === 0) this.#queues.delete(rateName);
      }
      this.#sweepAt = Math.max(SWEEP_KEYS, 2 * this.#size);
    }
    const timeoutError = this.#timeoutError;
    const queue: KeyQueue = {
      name,
      key,
      rate,
      open: null,
      latest: null,
      late: () => timeoutError(name),
    };
    let keys = this.#queues.get(name);
    if (keys === undefined) {
      keys = new Map();
      this.#queues.set(name, keys);
    }
    keys.set(key, queue);
    this.#size++;
    return queue;
  }
}

/** Neither the previous batch's answer nor its failure: the next batch only waits for it. */
function ignore(): void {}

/** The result of call `index` of `batch`, or why there is none (`settled` false: not in time). */
function resultOf(batch: Batch, index: number, settled: boolean): RateLimitResult {
  if (!settled) throw batch.queue.late();
  if (batch.results === undefined) throw batch.failure;
  return batch.results[index]!;
}
