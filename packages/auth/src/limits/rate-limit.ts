import { createRateLimiter, type RateConfig, type RateLimitStoreBinding } from "@svc/ratelimit";
import { SvcError } from "@svc/server";
import { addressKey, checkIpv6Prefix, enforceVerdict, RareWarning } from "@svc/server/internal";
import { sha256Hex } from "../sha256-hex.ts";
import { type AuthLimitName, type AuthLimitRule, DEFAULT_AUTH_LIMITS } from "./rules.ts";

/** Options of {@link createAuthRateLimit}. */
export interface AuthRateLimitOptions {
  /** The `RateLimitStore` Durable Object namespace, or the name of its binding (`"RATE_LIMITER"`). */
  store: RateLimitStoreBinding;
  /** Per limit: a different rate, or `false` to turn that limit off. Unnamed limits keep their default. */
  limits?: Partial<Record<AuthLimitName, RateConfig | false>>;
  /**
   * The caller's IP. Default: `cf-connecting-ip`, which Cloudflare's edge sets
   * (never `x-forwarded-for`, which clients forge); without it, one shared bucket.
   */
  ip?: (request: Request) => string;
  /**
   * Bits of an IPv6 caller's address the default `ip` keeps: every address of
   * one network of this size shares the per-IP limits (a /64 is what one
   * line or host usually holds; keyed by the full address it was unlimited).
   * @default 64
   */
  ipv6Prefix?: number;
  /**
   * When the store cannot answer: `deny` (default: a sign-in endpoint must not
   * open up while its limiter is down; answers 503) or `allow` (logged).
   */
  onStoreError?: "allow" | "deny";
}

/** The limiter `handleAuthRequest({ rateLimit })` runs; build it with {@link createAuthRateLimit}. */
export interface AuthRateLimit {
  /**
   * Spends one unit of every limit `path` falls under. Answers the
   * `RateLimit-*` headers of the tightest one, or throws `RATE_LIMITED` (429,
   * with `Retry-After`) or `UNAVAILABLE` (503). `account` answers the account
   * the request names (`accountOf`: that path's own field, or the user behind
   * a two-factor challenge); it is called at most once, and only when a
   * per-account limit covers `path`. Without an account, per-account limits
   * are skipped (better-auth refuses such a request anyway).
   */
  check(
    path: string,
    request: Request,
    account: () => Promise<string | undefined>,
  ): Promise<Record<string, string>>;
}

const RATE_PREFIX = "svc-auth:";

/**
 * Exact limits on better-auth's sensitive endpoints (sign-in, one-time code
 * checks and two-factor verification per IP and per account, sign-up per IP,
 * password reset / magic link / OTP sends per IP and per target), counted in
 * `@svc/ratelimit`'s Durable Object, so every isolate and every environment
 * shares one count.
 * better-auth's own limiter counts per isolate in memory and is on only with
 * `NODE_ENV=production`: on Workers it protects nothing.
 *
 * @example
 * ```ts
 * const authLimits = createAuthRateLimit({ store: "RATE_LIMITER" });
 * // …in fetch:
 * return (await handleAuthRequest(auth, request, { rateLimit: authLimits })) ?? svc.fetch(request, env, ctx);
 * ```
 * @see ../../../../docs/auth.md "Auth endpoint limits"
 */
export function createAuthRateLimit(options: AuthRateLimitOptions): AuthRateLimit {
  const rules: [string, AuthLimitRule][] = [];
  for (const [name, rule] of Object.entries(DEFAULT_AUTH_LIMITS) as [
    AuthLimitName,
    AuthLimitRule,
  ][]) {
    const override = options.limits?.[name];
    if (override === false) continue;
    rules.push([`${RATE_PREFIX}${name}`, override ? { ...rule, rate: override } : rule]);
  }
  const limiter = createRateLimiter({
    store: options.store,
    // A placeholder keeps the limiter valid when every limit is turned off.
    rates: Object.fromEntries(
      rules.length > 0
        ? rules.map(([name, rule]) => [name, rule.rate])
        : [[`${RATE_PREFIX}none`, { kind: "fixed window", rate: 1, period: 1000 }]],
    ),
  });
  const ipv6Prefix = checkIpv6Prefix(options.ipv6Prefix, "createAuthRateLimit");
  const ipOf =
    options.ip ??
    ((request: Request) =>
      addressKey(request.headers.get("cf-connecting-ip") ?? "unknown", ipv6Prefix));
  const onStoreError = options.onStoreError ?? "deny";
  // Once a minute per isolate: a stack per refused sign-in would flood the console during an outage.
  const storeOutage = new RareWarning();
  const outageLine = `svc/auth: the auth rate limiter's store is unavailable; auth calls are ${onStoreError === "deny" ? "refused (503)" : "admitted"}`;
  return {
    async check(path, request, account) {
      let tightest: Record<string, string> = {};
      let least = Number.POSITIVE_INFINITY;
      let accountKey: Promise<string | undefined> | undefined;
      for (const [name, rule] of rules) {
        if (!rule.paths.includes(path)) continue;
        let key: string | undefined;
        if (rule.by === "ip") key = ipOf(request);
        else {
          accountKey ??= account().then((named) =>
            named === undefined ? undefined : sha256Hex(named),
          );
          key = await accountKey;
        }
        if (key === undefined) continue;
        let verdict: Awaited<ReturnType<typeof limiter.limit>>;
        try {
          verdict = await limiter.limit(name, { key });
        } catch (error) {
          if ((error as { code?: unknown }).code !== "UNAVAILABLE") throw error;
          storeOutage.report(outageLine, error);
          if (onStoreError === "deny") {
            throw new SvcError("UNAVAILABLE", "Sign-in is briefly unavailable; try again shortly.");
          }
          continue;
        }
        const headers = enforceVerdict(
          verdict,
          "Too many attempts; retry after the time in Retry-After.",
        );
        if (verdict.remaining < least) {
          least = verdict.remaining;
          tightest = headers;
        }
      }
      return tightest;
    },
  };
}
