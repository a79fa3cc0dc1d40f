import type { RateLimitVerdict } from "./verdicts.ts";

/** Keys a {@link RefusalCache} holds before it drops those whose refusal is over (then all). */
const MAX_REFUSED_KEYS = 10_000;

/** What a refusal of one key said, as times (ms since the epoch) instead of durations. */
interface Refusal {
  retryAt: number;
  resetAt: number;
  limit: number;
  remaining: number;
}

/**
 * Keys a gate's limiter refused, each until its `retryAfter` is over,
 * counted from when the decision was asked for: the store made it then or
 * later, so the cache never refuses a key past the store's own retry time
 * (a verdict that came back through a shard took that trip's time). A
 * gate asks here first: a key refused a moment ago is refused again in this
 * isolate, with no store call, and a gate decided in the shard refuses it
 * before the body is read or the shard is called. A flood from one refused
 * caller then costs a map lookup per request.
 *
 * It never refuses what the store would admit: a gate spends one unit per
 * call, and a refused key's budget only grows back with time, so the store
 * could admit nothing of it before `retryAfter` either. It may stop a little
 * early (by the time between asking and the store's decision); the store
 * then refuses the call itself. (A limiter built with a test `clock` is the
 * exception: the refusal is held by real time.)
 *
 * @example
 * ```ts
 * const refusals = new RefusalCache();
 * refusals.note("203.0.113.7", verdict, askedAt); // verdict.ok === false, asked for at askedAt
 * refusals.verdictOf("203.0.113.7"); // the same refusal, its times counted down, or undefined
 * ```
 */
export class RefusalCache {
  readonly #refused = new Map<string, Refusal>();

  /**
   * Remembers a refused `verdict` of `key` until its `retryAfter` is over,
   * counted from `askedAt` (ms since the epoch; default now): when the gate
   * asked for the decision, no later than the store made it.
   */
  note(key: string, verdict: RateLimitVerdict, askedAt: number = Date.now()): void {
    if (verdict.ok || !(verdict.retryAfter > 0)) return;
    if (this.#refused.size >= MAX_REFUSED_KEYS) this.#sweep();
    this.#refused.set(key, {
      retryAt: askedAt + verdict.retryAfter,
      resetAt: askedAt + verdict.resetAfter,
      limit: verdict.limit,
      remaining: verdict.remaining,
    });
  }

  /**
   * The refusal of `key` with its times counted down to now, or `undefined`
   * when it has none in force (the usual call: one map lookup).
   */
  verdictOf(key: string): RateLimitVerdict | undefined {
    const refusal = this.#refused.get(key);
    if (refusal === undefined) return undefined;
    const now = Date.now();
    if (refusal.retryAt <= now) {
      this.#refused.delete(key);
      return undefined;
    }
    return {
      ok: false,
      retryAfter: refusal.retryAt - now,
      limit: refusal.limit,
      remaining: refusal.remaining,
      resetAfter: Math.max(0, refusal.resetAt - now),
    };
  }

  /** Drops the refusals that are over; all of them when that leaves the cache full. */
  #sweep(): void {
    const now = Date.now();
    for (const [key, refusal] of this.#refused)
      if (refusal.retryAt <= now) this.#refused.delete(key);
    if (this.#refused.size >= MAX_REFUSED_KEYS) this.#refused.clear();
  }
}
