import { SvcError } from "../errors/svc-error.ts";
import { RareWarning } from "../observability/rare-warning.ts";
import { addressKey, checkIpv6Prefix, DEFAULT_IPV6_PREFIX } from "./address-key.ts";

/** What `@svc/ratelimit`'s limiter (or any compatible one) answers. Times in milliseconds. */
export interface RateLimitVerdict {
  ok: boolean;
  retryAfter: number;
  limit: number;
  remaining: number;
  resetAfter: number;
}

/**
 * Any limiter with `@svc/ratelimit`'s `limit` method: what `createRestRateLimit`
 * wraps. Structural, so `@svc/server` does not depend on `@svc/ratelimit`;
 * `RateLimiter` is the name of the real one there.
 */
export interface LimiterLike {
  limit(name: string, options: { key: string; count?: number }): Promise<RateLimitVerdict>;
  /**
   * A verdict without a promise when the limiter can give one at once
   * (`@svc/ratelimit`'s leased mode, from this isolate's lease), else
   * `undefined`: the gates then ask `limit`.
   */
  spendLease?(name: string, options: { key: string; count?: number }): RateLimitVerdict | undefined;
}

/**
 * A gate's `RateLimit-*` headers: at once when the limiter decided without
 * waiting (a leased rate's lease held the units), else a promise of them.
 *
 * @example
 * ```ts
 * const headers: GateHeaders = await gate.check(request, "messages:list");
 * ```
 */
export type GateHeaders = Record<string, string> | Promise<Record<string, string>>;

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

/** A limiter error that means "the store cannot be reached" (`@svc/ratelimit`'s `RateLimitStoreError`). */
function isStoreOutage(error: unknown): boolean {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as { code?: unknown }).code === "UNAVAILABLE"
  );
}

const seconds = (ms: number) => Math.max(0, Math.ceil(ms / 1000));

/**
 * The one way svc answers a limiter's verdict: `RateLimit-Limit`,
 * `RateLimit-Remaining` and `RateLimit-Reset` (seconds) for an admitted call,
 * or a thrown `RATE_LIMITED` (429) carrying those and `Retry-After` (whole
 * seconds, at least 1). Shared by the REST gate and `@svc/auth`'s limits.
 *
 * @example
 * ```ts
 * const headers = enforceVerdict(await limiter.limit("api", { key: ip }), "Too many requests.");
 * ```
 */
export function enforceVerdict(verdict: RateLimitVerdict, message: string): Record<string, string> {
  const headers: Record<string, string> = {
    "ratelimit-limit": String(verdict.limit),
    "ratelimit-remaining": String(Math.max(0, verdict.remaining)),
    "ratelimit-reset": String(seconds(verdict.resetAfter)),
  };
  if (!verdict.ok) {
    const retryAfter = String(Math.max(1, seconds(verdict.retryAfter)));
    throw new SvcError("RATE_LIMITED", message, {
      headers: { ...headers, "retry-after": retryAfter },
    });
  }
  return headers;
}

/**
 * Builds the REST rate-limit gate. It runs before the body is read and before
 * dispatch, so a limited call costs nothing downstream; RPC never passes it.
 * Every REST response carries `RateLimit-Limit`, `RateLimit-Remaining` and
 * `RateLimit-Reset`; a refused one gets 429 with `Retry-After` (whole seconds,
 * at least 1).
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
  const spend = (key: string) =>
    spendOrRefuse(limiter, options.name, key, onStoreError, TOO_MANY_REQUESTS);
  return {
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
}

const TOO_MANY_REQUESTS = "Too many requests; retry after the time in Retry-After.";

/**
 * Spends one unit of `key` under the rate `name` and answers the
 * `RateLimit-*` headers, or throws `RATE_LIMITED` (429) with `message`. An
 * unreachable store admits the call (logged) under `allow` and is
 * `UNAVAILABLE` (503) under `deny`; any other limiter error is a
 * configuration mistake and propagates (500). Every svc gate decides this way.
 * The headers come at once when the limiter's `spendLease` answers, else as
 * a promise; errors always come as a rejected promise, never thrown.
 *
 * @example
 * ```ts
 * const headers = await spendOrRefuse(limiter, "sockets", ip, "allow", "Too many sockets.");
 * ```
 */
export function spendOrRefuse(
  limiter: LimiterLike,
  name: string,
  key: string,
  onStoreError: "allow" | "deny",
  message: string,
): GateHeaders {
  let verdict: Promise<RateLimitVerdict>;
  try {
    const local = limiter.spendLease?.(name, { key });
    if (local !== undefined) return enforceVerdict(local, message);
    verdict = Promise.resolve(limiter.limit(name, { key }));
  } catch (error) {
    verdict = Promise.reject(error);
  }
  return verdict.then(
    (answer) => enforceVerdict(answer, message),
    (error: unknown) => afterStoreError(error, onStoreError),
  );
}

/**
 * The gates' store outages, printed once a minute per isolate with the count
 * left out: one warning for the gates that admit, one for those that refuse,
 * so each line's count is of calls it describes.
 */
const storeOutage = { allow: new RareWarning(), deny: new RareWarning() };
const OUTAGE_LINE = {
  allow: "svc: the rate limiter's store is unavailable; calls are admitted",
  deny: "svc: the rate limiter's store is unavailable; calls are refused (503)",
};

/** What a gate does when the limiter failed: admit (`allow`) or refuse (`deny`) an outage, rethrow anything else. */
function afterStoreError(error: unknown, onStoreError: "allow" | "deny"): Record<string, string> {
  // Only an unreachable store is an outage; a misconfigured limiter fails loudly (500).
  if (!isStoreOutage(error)) throw error;
  storeOutage[onStoreError].report(OUTAGE_LINE[onStoreError], error);
  if (onStoreError === "deny")
    throw new SvcError("UNAVAILABLE", "Rate limiting is unavailable; try again shortly.");
  return {};
}
