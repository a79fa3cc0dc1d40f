import type { Rate } from "../rates.ts";
import type { Decision } from "./result.ts";

/**
 * Fixed-window state: the start of the current window and what it has counted.
 *
 * @example
 * ```ts
 * const state: FixedWindowState = { start: 60_000, count: 4 };
 * ```
 */
export interface FixedWindowState {
  start: number;
  count: number;
}

/**
 * Fixed window: at most `rate` units in each window `[k × period, (k+1) × period)`.
 * Windows are aligned to the epoch, so every key's window turns over at the
 * same instant (the top of the minute for `MINUTE`): predictable, and the
 * cheapest algorithm, but a client can spend `rate` just before a boundary and
 * `rate` again just after it.
 *
 * Pure: `now` must be at or after every time recorded in `state`.
 *
 * @example
 * ```ts
 * fixedWindow(undefined, { kind: "fixed window", rate: 2, period: 1000, capacity: 2 }, 1, 0).result.remaining; // 1
 * ```
 */
export function fixedWindow(
  previous: FixedWindowState | undefined,
  rate: Rate,
  count: number,
  now: number,
): Decision<FixedWindowState> {
  const { period } = rate;
  const current =
    previous && now < previous.start + period
      ? previous
      : { start: Math.floor(now / period) * period, count: 0 };
  const untilEnd = current.start + period - now;
  if (current.count + count > rate.rate) {
    return {
      state: current,
      result: {
        ok: false,
        retryAfter: untilEnd,
        limit: rate.rate,
        remaining: rate.rate - current.count,
        resetAfter: untilEnd,
      },
    };
  }
  const next = { start: current.start, count: current.count + count };
  return {
    state: next,
    result: {
      ok: true,
      retryAfter: 0,
      limit: rate.rate,
      remaining: rate.rate - next.count,
      resetAfter: untilEnd,
    },
  };
}
