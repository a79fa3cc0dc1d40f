import { RateLimitError } from "./errors.ts";

/**
 * The three algorithms a named rate can use. See `docs/ratelimit.md` for what
 * each allows; in short: `"fixed window"` is cheapest and allows bursts at
 * window edges, `"sliding window"` smooths those edges, `"token bucket"` allows
 * a burst of `capacity` then a steady `rate` per `period`.
 *
 * @example
 * ```ts
 * const kind: RateKind = "sliding window";
 * ```
 */
export type RateKind = "fixed window" | "sliding window" | "token bucket";

/**
 * One named rate: at most `rate` units per `period` milliseconds for each key.
 *
 * @example
 * ```ts
 * const rates = {
 *   signIn: { kind: "fixed window", rate: 5, period: MINUTE },
 *   api: { kind: "sliding window", rate: 100, period: MINUTE },
 *   upload: { kind: "token bucket", rate: 10, period: SECOND, capacity: 50 },
 * } satisfies Record<string, RateConfig>;
 * ```
 */
export interface RateConfig {
  kind: RateKind;
  /** Units allowed per period (a positive integer). */
  rate: number;
  /** The period in milliseconds (a positive integer; use `SECOND`, `MINUTE`, ...). */
  period: number;
  /**
   * Token bucket only: the most units that can be spent at once after an idle
   * time (the burst). A positive integer.
   * @default rate
   */
  capacity?: number;
  /**
   * Opt-in approximate mode: each isolate takes `units` of a key's allowance
   * from the store at once (a lease, valid `ttlMs`) and spends it locally, so
   * most calls never reach the Durable Object. Never admits more than the
   * exact limit; may refuse up to `units - 1` units per isolate and lease that
   * an exact limiter would admit (leased units left unused are lost). Without
   * it every call is decided exactly by the store.
   */
  lease?: { units: number; ttlMs?: number };
}

/**
 * A validated {@link RateConfig} with `capacity` filled in (for windows:
 * `rate`), so the algorithms never deal with defaults or bad numbers.
 *
 * @example
 * ```ts
 * const rate: Rate = toRate("api", { kind: "fixed window", rate: 5, period: MINUTE });
 * rate.capacity; // 5
 * ```
 */
export interface Rate {
  readonly kind: RateKind;
  readonly rate: number;
  readonly period: number;
  readonly capacity: number;
  /** The leased mode's settings, or `null` for exact counting. */
  readonly lease: { readonly units: number; readonly ttlMs: number } | null;
}

/** How long a lease is valid when `lease.ttlMs` is not given. */
export const DEFAULT_LEASE_TTL_MS = 1_000;

const KINDS: readonly RateKind[] = ["fixed window", "sliding window", "token bucket"];

/**
 * The algorithms compute in integer "unit-milliseconds" (`units × period`), so
 * those products must stay exact in a double. 2^50 leaves room for the sums of
 * a few of them (e.g. a million per day is 8.6e13, far below).
 */
const MAX_PRODUCT = 2 ** 50;

function isPositiveInteger(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value > 0;
}

/**
 * Checks one named rate and fills in its defaults. Throws a
 * `RateLimitError("INVALID_CONFIG")` naming the rate and the field, so a
 * mistake is caught when the limiter is built rather than on the first request.
 *
 * @example
 * ```ts
 * toRate("upload", { kind: "token bucket", rate: 10, period: SECOND, capacity: 50 });
 * toRate("oops", { kind: "fixed window", rate: 0, period: SECOND }); // throws INVALID_CONFIG
 * ```
 */
export function toRate(name: string, config: RateConfig): Rate {
  const fail = (message: string): never => {
    throw new RateLimitError(
      "INVALID_CONFIG",
      `svc ratelimit: rate ${JSON.stringify(name)} ${message}`,
    );
  };
  if (typeof config !== "object" || config === null) return fail("must be an object");
  const { kind, rate, period, capacity, lease } = config;
  if (!KINDS.includes(kind))
    fail(
      `has kind ${JSON.stringify(kind)}; expected one of ${KINDS.map((k) => `"${k}"`).join(", ")}`,
    );
  if (!isPositiveInteger(rate)) fail(`needs rate as a positive integer, got ${String(rate)}`);
  if (!isPositiveInteger(period))
    fail(`needs period as a positive integer of milliseconds, got ${String(period)}`);
  if (capacity !== undefined && kind !== "token bucket")
    fail(`sets capacity, which only a "token bucket" uses`);
  if (capacity !== undefined && !isPositiveInteger(capacity))
    fail(`needs capacity as a positive integer, got ${String(capacity)}`);
  const burst = capacity ?? rate;
  if (Math.max(rate, burst) * period > MAX_PRODUCT)
    fail(`is too large: rate (or capacity) × period must stay below 2^50`);
  if (lease !== undefined) {
    if (typeof lease !== "object" || lease === null) fail("needs lease as { units, ttlMs? }");
    if (!isPositiveInteger(lease.units) || lease.units > burst)
      fail(
        `needs lease.units as a positive integer up to its limit ${burst}, got ${String(lease.units)}`,
      );
    if (lease.ttlMs !== undefined && !isPositiveInteger(lease.ttlMs))
      fail(`needs lease.ttlMs as a positive integer of milliseconds, got ${String(lease.ttlMs)}`);
  }
  return {
    kind,
    rate,
    period,
    capacity: burst,
    lease: lease ? { units: lease.units, ttlMs: lease.ttlMs ?? DEFAULT_LEASE_TTL_MS } : null,
  };
}
