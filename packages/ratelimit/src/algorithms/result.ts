/**
 * What `limit` answers for one call.
 *
 * @example
 * ```ts
 * const { ok, retryAfter } = await limiter.limit("api", { key: ip });
 * if (!ok) return new Response("slow down", { status: 429, headers: { "retry-after": String(Math.ceil(retryAfter / 1000)) } });
 * ```
 */
export interface RateLimitResult {
  /** True when the call was counted; false when it was refused (and not counted). */
  ok: boolean;
  /**
   * Milliseconds until this same call (same `count`) would be allowed, if no
   * one else spends from the key meanwhile. Exactly the earliest moment: one
   * millisecond earlier it is still refused. `0` when `ok`.
   */
  retryAfter: number;
  /** The most units the key can spend at once: `rate` for windows, `capacity` for a token bucket. */
  limit: number;
  /** Whole units still available now, after this call (never negative). */
  remaining: number;
  /** Milliseconds until the key is back to `remaining === limit` if no one spends meanwhile. */
  resetAfter: number;
}

/**
 * An algorithm's answer: the result, and the state to store if the call was
 * counted. Returned rather than written, so the algorithms stay pure and the
 * store alone decides what reaches storage.
 *
 * @example
 * ```ts
 * const { result, state } = fixedWindow(previous, rate, 1, now);
 * if (result.ok) save(state);
 * ```
 */
export interface Decision<State> {
  result: RateLimitResult;
  state: State;
}
