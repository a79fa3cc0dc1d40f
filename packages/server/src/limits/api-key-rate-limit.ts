import type { ApiKeyCaller } from "../model/api-key.ts";
import { type GateHeaders, type LimiterLike, spendOrRefuse } from "./verdicts.ts";

/** Options of {@link createApiKeyRateLimit}. */
export interface ApiKeyRateLimitOptions {
  /** The limiter's named rate each key spends from. */
  name: string;
  /**
   * The bucket of a call. Default: one per key (`apiKey:<id>`), whatever it
   * calls; `(key, path) => \`${key.id}:${path}\`` gives each procedure its own.
   */
  key?: (apiKey: ApiKeyCaller, target: string) => string;
  /** When the limiter's store cannot be reached: `allow` (default, logged) or `deny` (503), as the REST gate. */
  onStoreError?: "allow" | "deny";
}

/** The gate `createWorker({ apiKeyRateLimit })` runs for every call an API key makes. */
export interface ApiKeyRateLimitGate {
  /** `RateLimit-*` headers for the answer (at once from a lease), or fails with `RATE_LIMITED` (429) / `UNAVAILABLE`. */
  check(apiKey: ApiKeyCaller, target: string): GateHeaders;
}

const TOO_MANY = "Too many calls with this API key; retry after the time in Retry-After.";

/**
 * Builds the per-key rate limit: each call an API key makes over RPC, REST
 * or a socket spends one unit of its own bucket in `@svc/ratelimit`'s
 * Durable Object (exact across isolates). A limited key gets `429
 * RATE_LIMITED` with `Retry-After` and `RateLimit-*`, never `401`: the key
 * is valid, it is only early. It runs once the key is resolved, after the
 * address gates, so a flood of bad keys is stopped by those first.
 *
 * @example
 * ```ts
 * const limiter = createRateLimiter({ store: "RATE_LIMITER", rates: { apiKeys: { kind: "token bucket", rate: 600, period: MINUTE } } });
 * createWorker({ ..., apiKeyRateLimit: createApiKeyRateLimit(limiter, { name: "apiKeys" }) });
 * ```
 */
export function createApiKeyRateLimit(
  limiter: LimiterLike,
  options: ApiKeyRateLimitOptions,
): ApiKeyRateLimitGate {
  const keyOf = options.key ?? ((apiKey: ApiKeyCaller) => `apiKey:${apiKey.id}`);
  const onStoreError = options.onStoreError ?? "allow";
  return {
    check: (apiKey, target) =>
      spendOrRefuse(limiter, options.name, keyOf(apiKey, target), onStoreError, TOO_MANY),
  };
}
