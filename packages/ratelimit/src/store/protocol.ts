import type { RateLimitResult } from "../algorithms/result.ts";
import type { Rate } from "../rates.ts";

/**
 * One decision of a {@link LimitBatch}: the units one `limit` call spends.
 *
 * @example
 * ```ts
 * const decision: BatchedDecision = { count: 3 };
 * ```
 */
export interface BatchedDecision {
  count: number;
  /** The limiter's injected clock reading; absent in production, where the store's own clock decides. */
  now?: number;
}

/**
 * What the limiter sends the store: the `limit` calls of one key that this
 * isolate coalesced into one store call, decided in order as if they had come
 * one by one. The validated rate travels with each batch, so the store needs
 * no configuration of its own.
 *
 * @example
 * ```ts
 * const batch: LimitBatch = { rate: toRate("api", config), decisions: [{ count: 1 }, { count: 2 }] };
 * ```
 */
export interface LimitBatch {
  rate: Rate;
  decisions: BatchedDecision[];
}

/**
 * What the store answers a batch: one result per decision, in the batch's
 * order, or why it cannot decide because it is set up wrong. A set-up mistake
 * is a reply, not a thrown error, so the limiter can tell it from an outage:
 * failing open on it would switch rate limiting off for good without anyone
 * noticing.
 *
 * @example
 * ```ts
 * const reply: StoreReply = { misconfigured: "RateLimitStore needs SQLite storage ..." };
 * ```
 */
export type StoreReply = { results: RateLimitResult[] } | { misconfigured: string };

/**
 * A lease request: up to `units` of the key's allowance, at least `minimum`
 * (the call that asked); the store grants as much as fits, or nothing.
 *
 * @example
 * ```ts
 * const request: LeaseRequest = { rate, units: 10, minimum: 1 };
 * ```
 */
export interface LeaseRequest {
  rate: Rate;
  units: number;
  minimum: number;
  now?: number;
}

/**
 * What the store answers a lease: the units granted (0 when even `minimum`
 * did not fit) and the decision for what was granted (or refused).
 *
 * @example
 * ```ts
 * const reply: LeaseReply = { granted: 10, result };
 * ```
 */
export type LeaseReply = { granted: number; result: RateLimitResult } | { misconfigured: string };

/**
 * The Durable Object name for one (rate name, key) pair. JSON of the pair
 * rather than `name + ":" + key`, so no two pairs can collide (`"a:b" + "c"`
 * versus `"a" + "b:c"`).
 *
 * @example
 * ```ts
 * namespace.getByName(objectName("api", "203.0.113.7"));
 * ```
 */
export function objectName(name: string, key: string): string {
  return JSON.stringify([name, key]);
}
