import type { Rate } from "../rates.ts";
import type { AlgorithmState } from "./decide.ts";
import { roll } from "./sliding-window.ts";

/**
 * How many units the store writes ahead for a key of `rate`: 1 % of its
 * limit. A durable write then covers that many more decisions, answered from
 * memory; after the object restarts (eviction, crash, deploy) at most that
 * many units are counted as spent that were not. Limits under 100 get 0:
 * every spending decision is written exactly, and a restart loses nothing.
 * No absolute cap: a token bucket refills its reserve, and a reserve that
 * refills faster than the calls between two store calls (1,000 units of a
 * bucket of 100,000,000 a minute refill in 0.6 ms) would cost a write per
 * store call; 1 % of a bucket refills in 1 % of its period.
 *
 * @example
 * ```ts
 * reserveUnits(toRate("api", { kind: "token bucket", rate: 100_000, period: MINUTE })); // 1000
 * reserveUnits(toRate("signIn", { kind: "fixed window", rate: 10, period: MINUTE })); // 0
 * ```
 */
export function reserveUnits(rate: Rate): number {
  return Math.floor(rate.capacity / 100);
}

/** A fixed window's count in the window holding `now` (0 once its window has passed). */
function windowCount(state: { start: number; count: number }, period: number, now: number) {
  return now < state.start + period ? state.count : 0;
}

/** A token bucket's level at `now`, in unit-milliseconds (may be negative once charged ahead). */
function bucketLevel(
  state: { level: number; updated: number; period: number },
  rate: Rate,
  now: number,
): number {
  const level =
    state.period === rate.period
      ? state.level
      : Math.floor((state.level / state.period) * rate.period);
  return Math.min(
    rate.capacity * rate.period,
    level + Math.max(0, now - state.updated) * rate.rate,
  );
}

/**
 * `stored` with `units` more spent at `now`, whether or not they fit (a
 * window's count may pass its limit, a bucket's level go below zero): the
 * state a store writes ahead of decisions it will answer from memory, so
 * what storage holds never counts less than what was admitted.
 *
 * @example
 * ```ts
 * charge({ kind: "fixed window", state: { start: 0, count: 3 } }, rate, 10, 500);
 * // { kind: "fixed window", state: { start: 0, count: 13 } }
 * ```
 */
export function charge(
  stored: AlgorithmState | undefined,
  rate: Rate,
  units: number,
  now: number,
): AlgorithmState {
  const { period } = rate;
  switch (rate.kind) {
    case "fixed window": {
      const prior = stored?.kind === rate.kind ? stored.state : undefined;
      const start =
        prior && now < prior.start + period ? prior.start : Math.floor(now / period) * period;
      const count = prior ? windowCount(prior, period, now) : 0;
      return { kind: rate.kind, state: { start, count: count + units } };
    }
    case "sliding window": {
      const prior = stored?.kind === rate.kind ? stored.state : undefined;
      const window = roll(prior, period, now);
      return { kind: rate.kind, state: { ...window, current: window.current + units } };
    }
    case "token bucket": {
      const prior = stored?.kind === rate.kind ? stored.state : undefined;
      const level = prior ? bucketLevel(prior, rate, now) : rate.capacity * period;
      return { kind: rate.kind, state: { level: level - units * period, updated: now, period } };
    }
  }
}

/**
 * True when `durable` counts at least what `live` counts, at `now` and at
 * every later moment (both left alone): then admitting what `live` admitted
 * needs no new write, since a restart from `durable` can only refuse more.
 * Windows compare their counts once brought to `now`'s window (a sliding
 * window each of its two counts, so the decaying one cannot fall behind);
 * buckets their levels, which refill alike from then on.
 *
 * @example
 * ```ts
 * covers(charge(live, rate, 10, now), live, rate, now); // true
 * ```
 */
export function covers(
  durable: AlgorithmState | undefined,
  live: AlgorithmState | undefined,
  rate: Rate,
  now: number,
): boolean {
  if (live === undefined) return true;
  if (durable === undefined || durable.kind !== live.kind) return false;
  const { period } = rate;
  switch (live.kind) {
    case "fixed window": {
      if (durable.kind !== live.kind) return false;
      return windowCount(durable.state, period, now) >= windowCount(live.state, period, now);
    }
    case "sliding window": {
      if (durable.kind !== live.kind) return false;
      const [held, spent] = [roll(durable.state, period, now), roll(live.state, period, now)];
      return held.current >= spent.current && held.previous >= spent.previous;
    }
    case "token bucket": {
      if (durable.kind !== live.kind) return false;
      return bucketLevel(durable.state, rate, now) <= bucketLevel(live.state, rate, now);
    }
  }
}
