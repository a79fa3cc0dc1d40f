import type { Rate } from "../rates.ts";
import { type FixedWindowState, fixedWindow } from "./fixed-window.ts";
import type { RateLimitResult } from "./result.ts";
import { type SlidingWindowState, slidingWindow } from "./sliding-window.ts";
import { type TokenBucketState, tokenBucket } from "./token-bucket.ts";

/**
 * One key's algorithm state, tagged with the algorithm it belongs to so a
 * change of `kind` is recognised rather than misread.
 *
 * @example
 * ```ts
 * const stored: AlgorithmState = { kind: "fixed window", state: { start: 0, count: 3 } };
 * ```
 */
export type AlgorithmState =
  | { kind: "fixed window"; state: FixedWindowState }
  | { kind: "sliding window"; state: SlidingWindowState }
  | { kind: "token bucket"; state: TokenBucketState };

/**
 * Runs the algorithm `rate.kind` names over a key's state. State written by a
 * different algorithm (the rate's kind changed between deploys) is ignored, as
 * if the key were new: the shapes do not translate.
 *
 * @example
 * ```ts
 * const { result, next } = decide(stored, rate, 1, Date.now());
 * ```
 */
export function decide(
  stored: AlgorithmState | undefined,
  rate: Rate,
  count: number,
  now: number,
): { result: RateLimitResult; next: AlgorithmState } {
  switch (rate.kind) {
    case "fixed window": {
      const prior = stored?.kind === rate.kind ? stored.state : undefined;
      const { result, state } = fixedWindow(prior, rate, count, now);
      return { result, next: { kind: rate.kind, state } };
    }
    case "sliding window": {
      const prior = stored?.kind === rate.kind ? stored.state : undefined;
      const { result, state } = slidingWindow(prior, rate, count, now);
      return { result, next: { kind: rate.kind, state } };
    }
    case "token bucket": {
      const prior = stored?.kind === rate.kind ? stored.state : undefined;
      const { result, state } = tokenBucket(prior, rate, count, now);
      return { result, next: { kind: rate.kind, state } };
    }
  }
}
