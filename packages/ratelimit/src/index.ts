/**
 * @svc/ratelimit — named rate limits (fixed window, sliding window, token
 * bucket) counted exactly in a Durable Object.
 *
 * @see ../../../docs/ratelimit.md
 * @packageDocumentation
 */
export type { RateLimitResult } from "./algorithms/result.ts";
export {
  RateLimitError,
  type RateLimitErrorCode,
  RateLimitStoreError,
  rateLimitErrorCodes,
} from "./errors.ts";
export {
  createRateLimiter,
  type LimitOptions,
  type RateLimiter,
  type RateLimiterOptions,
} from "./limiter.ts";
export type { RateConfig, RateKind } from "./rates.ts";
export { RateLimitStore } from "./store/rate-limit-store.ts";
export type { RateLimitStoreBinding } from "./store/store-client.ts";
export { DAY, HOUR, MINUTE, SECOND } from "./time.ts";
