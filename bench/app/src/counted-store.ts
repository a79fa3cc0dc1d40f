import { RateLimitStore as LimiterStore } from "@svc/ratelimit";
import { counters } from "./counters.ts";

/**
 * `@svc/ratelimit`'s store, counting the calls it answers, so the gates
 * scenario reports store calls per 1,000 requests: what a gate costs besides
 * its in-isolate work (a leased gate should call once per lease, not per
 * request), read through the worker (`GET /bench/counters`).
 *
 * @example
 * ```ts
 * export { RateLimitStore } from "./counted-store.ts";
 * ```
 */
export class RateLimitStore extends LimiterStore {
  override limit(batch: Parameters<LimiterStore["limit"]>[0]) {
    counters.storeCalls++;
    return super.limit(batch);
  }

  override lease(request: Parameters<LimiterStore["lease"]>[0]) {
    counters.storeCalls++;
    return super.lease(request);
  }
}
