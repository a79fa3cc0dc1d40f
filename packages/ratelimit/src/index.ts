/**
 * @svc/ratelimit — named rate limits (fixed window, sliding window, token
 * bucket) counted exactly in a Durable Object.
 *
 * @packageDocumentation
 */
export type { RateLimitResult } from "./algorithms/result.ts";
export { RateLimitError, type RateLimitErrorCode, RateLimitStoreError } from "./errors.ts";
export type { RateConfig, RateKind } from "./rates.ts";
export { DAY, HOUR, MINUTE, SECOND } from "./time.ts";
