import { addressKey, checkIpv6Prefix, DEFAULT_IPV6_PREFIX } from "./address-key.ts";
import { RefusalCache } from "./refusals.ts";
import { registerShardGate } from "./shard-gate.ts";
import {
  type GateHeaders,
  type LimiterLike,
  spendOrRefuse,
  TOO_MANY_REQUESTS,
} from "./verdicts.ts";

/** Options of {@link createRestRateLimit}. */
export interface RestRateLimitOptions {
  /** The limiter's named rate to consume. */
  name: string;
  /**
   * The bucket key of a request. Default: the `cf-connecting-ip` header that
   * Cloudflare's edge sets (never `x-forwarded-for`, which clients forge);
   * requests without it share one bucket named `anonymous`.
   */
  key?: (request: Request, functionPath: string) => string | Promise<string>;
  /**
   * Bits of an IPv6 caller's address the default key keeps: every address of
   * one network of this size shares a bucket (an IPv4 address is its own).
   * @default 64
   */
  ipv6Prefix?: number;
  /**
   * What to do when the limiter's store cannot be reached (the limiter throws
   * an error with code `UNAVAILABLE`): `allow` (default: an outage of the
   * limiter must not become an outage of the API; it is logged) or `deny`
   * (answer 503). Any other limiter error, such as a missing binding, is a
   * configuration mistake and answers 500.
   */
  onStoreError?: "allow" | "deny";
  /**
   * Where a call of a known procedure is decided. `"shard"` (default): in
   * the call's shard, just before the procedure runs, with the shard call
   * the request makes anyway. There the shard's concurrent calls of a key
   * share one store call and await it together, which a worker's requests
   * may not: an exact rate's gate cost +2 % CPU per request there against
   * +31 % in the worker (BENCHMARKS.md section 2). `"worker"`: before the
   * identity is resolved, the body read or the shard called.
   *
   * Either way a key refused lately is refused in the worker, before all of
   * that; unknown paths, and every call when `shardAccess` is set, are
   * decided in the worker (so a refused shard and an unknown path still
   * answer alike). With `"shard"`, a call whose client goes away before it
   * reaches its shard (while its identity is resolved or its body read) may
   * go uncounted: Cloudflare can cancel an invocation whose client
   * disconnected. Choose `"worker"` where such calls must spend the
   * caller's budget too.
   * @default "shard"
   */
  decideIn?: "shard" | "worker";
}

/** The gate `createWorker({ restRateLimit })` runs before every REST dispatch. */
export interface RestRateLimitGate {
  /** Headers for the response (at once, or a promise of them), or fails with `RATE_LIMITED` / `UNAVAILABLE`. */
  check(request: Request, functionPath: string): GateHeaders;
}

/** Bucket of REST callers that carry no `cf-connecting-ip`. */
export const ANONYMOUS_BUCKET = "anonymous";

/**
 * The caller's address as every svc gate keys it by default: the
 * `cf-connecting-ip` header Cloudflare's edge sets (never `x-forwarded-for`,
 * which clients forge), an IPv6 address as its network of `ipv6Prefix` bits
 * (see {@link addressKey}), or {@link ANONYMOUS_BUCKET} without one.
 *
 * @example clientAddress(request) // "203.0.113.7", or "2001:db8:1:2:0:0:0:0/64"
 */
export const clientAddress = (request: Request, ipv6Prefix = DEFAULT_IPV6_PREFIX): string =>
  addressKey(request.headers.get("cf-connecting-ip") ?? ANONYMOUS_BUCKET, ipv6Prefix);

/**
 * Builds the REST rate-limit gate. A limited call never runs: it is decided
 * in the call's shard before the procedure runs (see `decideIn` for where,
 * and why), and a key refused lately is refused in the worker before the
 * body is read or anything is dispatched. RPC never passes it (see
 * `rpcRateLimit`). Every REST response carries `RateLimit-Limit`,
 * `RateLimit-Remaining` and `RateLimit-Reset`; a refused one gets 429 with
 * `Retry-After` (whole seconds, at least 1).
 *
 * @example
 * ```ts
 * const limiter = createRateLimiter({ store: "RATE_LIMITER", rates: { rest: { kind: "token bucket", rate: 60, period: MINUTE } } });
 * createWorker({ ..., restRateLimit: createRestRateLimit(limiter, { name: "rest" }) });
 * ```
 */
export function createRestRateLimit(
  limiter: LimiterLike,
  options: RestRateLimitOptions,
): RestRateLimitGate {
  const ipv6Prefix = checkIpv6Prefix(options.ipv6Prefix, "createRestRateLimit");
  const keyOf = options.key ?? ((request: Request) => clientAddress(request, ipv6Prefix));
  const onStoreError = options.onStoreError ?? "allow";
  const decideIn = options.decideIn ?? "shard";
  if (decideIn !== "shard" && decideIn !== "worker")
    throw new Error('svc: createRestRateLimit decideIn must be "shard" or "worker"');
  const { name } = options;
  const refusals = new RefusalCache();
  const spend = (key: string): GateHeaders =>
    spendOrRefuse(limiter, name, key, onStoreError, TOO_MANY_REQUESTS, refusals);
  const gate: RestRateLimitGate = {
    // Not async: each async frame and await of a known value was a promise and a turn of the
    // microtask queue on every REST request (BENCHMARKS.md section 1a, the leased gate); a
    // call spent from a lease is answered without any.
    check(request, functionPath) {
      try {
        const key = keyOf(request, functionPath);
        return typeof key === "string" ? spend(key) : Promise.resolve(key).then(spend);
      } catch (error) {
        return Promise.reject(error);
      }
    },
  };
  if (decideIn === "shard")
    registerShardGate(gate, { limiter, name, onStoreError, refusals, keyOf, decideHere: spend });
  return gate;
}
