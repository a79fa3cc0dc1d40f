import { SvcError } from "../errors/svc-error.ts";
import { RareWarning } from "../observability/rare-warning.ts";

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
  /**
   * Spends `count` units of `key`. `inObject` (the Durable Object's `ctx`)
   * is set when the call is made in one, as the REST gate decided in a shard
   * is: `@svc/ratelimit` then coalesces the object's calls on shared promises
   * instead of per-call timers. A limiter that ignores it stays correct.
   */
  limit(
    name: string,
    options: { key: string; count?: number; inObject?: object },
  ): Promise<RateLimitVerdict>;
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

/**
 * The headers of no gate: shared and frozen, so admission tells "no gate set
 * any" by identity and copies nothing (an answer copies them into its own
 * record).
 *
 * @example if (headers === NO_GATE_HEADERS) return response;
 */
export const NO_GATE_HEADERS: Record<string, string> = Object.freeze({});

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

/** The message of every REST and RPC gate's 429. */
export const TOO_MANY_REQUESTS = "Too many requests; retry after the time in Retry-After.";

/** Where a gate notes the keys its limiter refused (limits/refusals.ts's `RefusalCache`). */
export interface RefusalNotes {
  /** Notes a refusal of `key`, in force from `askedAt` (when the decision was asked for; default now). */
  note(key: string, verdict: RateLimitVerdict, askedAt?: number): void;
  /** The refusal of `key` still in force, its times counted down to now; else `undefined`. */
  verdictOf(key: string): RateLimitVerdict | undefined;
}

/**
 * The decisions that need no store call: a refusal of `key` still in force
 * in `refusals` (thrown as the same 429), or the limiter's lease
 * (`spendLease`; a refusal from it is noted). `undefined` when only the
 * store can decide. Synchronous: a gate on every request awaits nothing for
 * these.
 *
 * @example
 * ```ts
 * const headers = decideAtOnce(limiter, "rest", ip, TOO_MANY_REQUESTS, refusals) ?? (await askTheStore());
 * ```
 */
export function decideAtOnce(
  limiter: LimiterLike,
  name: string,
  key: string,
  message: string,
  refusals?: RefusalNotes,
): Record<string, string> | undefined {
  const refused = refusals?.verdictOf(key);
  if (refused !== undefined) return enforceVerdict(refused, message);
  const local = limiter.spendLease?.(name, { key });
  if (local === undefined) return undefined;
  if (!local.ok) refusals?.note(key, local);
  return enforceVerdict(local, message);
}

/**
 * Spends one unit of `key` under the rate `name` and answers the
 * `RateLimit-*` headers, or throws `RATE_LIMITED` (429) with `message`;
 * with `refusals`, a key refused lately is refused without the store and a
 * new refusal is noted ({@link decideAtOnce}). An
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
  refusals?: RefusalNotes,
): GateHeaders {
  let verdict: Promise<RateLimitVerdict>;
  let askedAt = 0;
  try {
    const atOnce = decideAtOnce(limiter, name, key, message, refusals);
    if (atOnce !== undefined) return atOnce;
    askedAt = Date.now();
    verdict = Promise.resolve(limiter.limit(name, { key }));
  } catch (error) {
    verdict = Promise.reject(error);
  }
  return verdict.then(
    (answer) => {
      if (!answer.ok) refusals?.note(key, answer, askedAt);
      return enforceVerdict(answer, message);
    },
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

/**
 * What a gate does when the limiter failed: admit (`allow`, no headers) or
 * refuse (`deny`, `UNAVAILABLE`) an outage, printed once a minute per
 * isolate; anything else is rethrown (a configuration mistake, 500).
 *
 * @example
 * ```ts
 * const headers = await limiter.limit("rest", { key }).then(toHeaders, (error) => afterStoreError(error, "allow"));
 * ```
 */
export function afterStoreError(
  error: unknown,
  onStoreError: "allow" | "deny",
): Record<string, string> {
  // Only an unreachable store is an outage; a misconfigured limiter fails loudly (500).
  if (!isStoreOutage(error)) throw error;
  storeOutage[onStoreError].report(OUTAGE_LINE[onStoreError], error);
  if (onStoreError === "deny")
    throw new SvcError("UNAVAILABLE", "Rate limiting is unavailable; try again shortly.");
  return {};
}
