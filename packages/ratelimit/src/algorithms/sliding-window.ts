import type { Rate } from "../rates.ts";
import type { Decision } from "./result.ts";

/**
 * Sliding-window state: the current epoch-aligned window and the counts of it
 * and the one before, the two counters the estimate needs.
 *
 * @example
 * ```ts
 * const state: SlidingWindowState = { start: 60_000, current: 2, previous: 7 };
 * ```
 */
export interface SlidingWindowState {
  start: number;
  current: number;
  previous: number;
}

/**
 * The state as of the window holding `now`: the same state within its
 * window; after it, the window that just ended becomes `previous` (or 0 when
 * more than one window passed).
 *
 * @example
 * ```ts
 * roll({ start: 0, previous: 1, current: 4 }, 1000, 1500); // { start: 1000, previous: 4, current: 0 }
 * ```
 */
export function roll(
  state: SlidingWindowState | undefined,
  period: number,
  now: number,
): SlidingWindowState {
  const start = Math.floor(now / period) * period;
  if (!state) return { start, current: 0, previous: 0 };
  if (now < state.start + period) return state;
  // Only the window right before the current one still overlaps the sliding window.
  const previous = start === state.start + period ? state.current : 0;
  return { start, current: 0, previous };
}

/**
 * Sliding window (the weighted two-window approximation): the units counted
 * in the last `period` are estimated as `previous × (1 − elapsed / period) +
 * current`, where `elapsed` is the time since the current window began. A call
 * is allowed when that estimate plus `count` stays within `rate`. No boundary
 * burst like a fixed window's, for two counters of state per key; it assumes
 * the previous window's units were spread evenly.
 *
 * Everything is computed ×`period` in integers, so there is no rounding: a
 * refused call retried after exactly `retryAfter` fits, one millisecond
 * earlier it does not. Pure: `now` must be at or after every time in `state`.
 *
 * @example
 * ```ts
 * // 10 per second; 10 spent in the previous second; half-way through this one:
 * slidingWindow({ start: 1000, current: 0, previous: 10 }, rate, 1, 1500).result.remaining; // 4
 * ```
 */
export function slidingWindow(
  state: SlidingWindowState | undefined,
  rate: Rate,
  count: number,
  now: number,
): Decision<SlidingWindowState> {
  const { period } = rate;
  const window = roll(state, period, now);
  const elapsed = now - window.start;
  const untilEnd = period - elapsed;
  const budget = rate.rate * period;
  const usedNow = used(window, untilEnd, period);

  if (usedNow + count * period > budget) {
    return {
      state: window,
      result: {
        ok: false,
        retryAfter: retryAfter(window, rate, count, untilEnd),
        limit: rate.rate,
        remaining: Math.max(0, Math.floor((budget - usedNow) / period)),
        resetAfter: window.current > 0 ? untilEnd + period : untilEnd,
      },
    };
  }
  const next = { ...window, current: window.current + count };
  return {
    state: next,
    result: {
      ok: true,
      retryAfter: 0,
      limit: rate.rate,
      remaining: Math.floor((budget - used(next, untilEnd, period)) / period),
      resetAfter: untilEnd + period,
    },
  };
}

/**
 * The estimate of units in the sliding window, ×period: the previous window's
 * count weighted by the part of it still inside the window. Module level, not
 * an arrow per decision (see token-bucket.ts's `untilFull`).
 */
function used(counts: SlidingWindowState, untilEnd: number, period: number): number {
  return counts.previous * untilEnd + counts.current * period;
}

/** The least `t` at which `count` fits, solved exactly for the two windows it can fall in. */
function retryAfter(window: SlidingWindowState, rate: Rate, count: number, untilEnd: number) {
  const { period } = rate;
  const slack = (rate.rate - window.current - count) * period;
  if (slack >= 0) {
    // Fits later in this window, once the previous window's weight has decayed
    // enough: previous × (untilEnd − t) ≤ slack. (Refused now, so previous > 0.)
    return untilEnd - Math.floor(slack / window.previous);
  }
  // Only fits in the next window, where this window's count becomes the
  // decaying one: current × (period − s) ≤ (rate − count) × period.
  const wait = period - Math.floor(((rate.rate - count) * period) / window.current);
  return untilEnd + Math.max(0, wait);
}
