import type { Identity } from "../model/identity.ts";
import { checkIpv6Prefix } from "./address-key.ts";
import { clientAddress } from "./rate-limit-gate.ts";
import { type LimiterLike, spendOrRefuse } from "./verdicts.ts";

/**
 * Options of {@link createSocketRateLimit}: the limiter's named rates for
 * socket opens, counted across every shard and isolate.
 */
export interface SocketRateLimitOptions {
  /** Rate of socket opens per address (`cf-connecting-ip`; without it, one shared `anonymous` bucket). */
  perIp?: string;
  /** Rate of socket opens per signed-in user (anonymous callers are counted by address only). */
  perUser?: string;
  /**
   * The address key of an upgrade request. Default: `cf-connecting-ip` (an
   * IPv6 address as its network of `ipv6Prefix` bits), else `anonymous`.
   */
  key?: (request: Request) => string | Promise<string>;
  /** Bits of an IPv6 address the default key keeps (one bucket per network). @default 64 */
  ipv6Prefix?: number;
  /** When the store cannot be reached: `allow` (default, logged) or `deny` (503), as the REST gate. */
  onStoreError?: "allow" | "deny";
}

/** The gate `createWorker({ socketRateLimit })` runs on every `GET /_svc/ws` upgrade. */
export interface SocketRateLimitGate {
  /** Before the identity is resolved: throws `RATE_LIMITED` (429) when the address has opened too many. */
  admitAddress(request: Request): Promise<void>;
  /** Once it is, for a signed-in caller: throws `RATE_LIMITED` when the user has opened too many. */
  admitUser(identity: Identity): Promise<void>;
}

/**
 * Builds the store-backed limit on subscription sockets: each upgrade spends
 * one unit of its address's rate and, signed in, one of its user's, in
 * `@svc/ratelimit`'s Durable Object, so the count holds across shards and
 * isolates. Since the shard closes every socket when its authority ends
 * (`subscriptionReauthSeconds`), a rate of opens also bounds the sockets open
 * at once: with a token bucket of `capacity` C refilling r per `period` P,
 * one key holds at most C + r × T / P sockets, T the reauth time. Each shard
 * caps sockets per address and per user by itself too (`socketLimits`).
 *
 * @example
 * ```ts
 * const limiter = createRateLimiter({
 *   store: "RATE_LIMITER",
 *   rates: {
 *     socketsPerIp: { kind: "token bucket", rate: 60, period: MINUTE, capacity: 60 },
 *     socketsPerUser: { kind: "token bucket", rate: 20, period: MINUTE, capacity: 20 },
 *   },
 * });
 * createWorker({ ..., socketRateLimit: createSocketRateLimit(limiter, { perIp: "socketsPerIp", perUser: "socketsPerUser" }) });
 * ```
 */
export function createSocketRateLimit(
  limiter: LimiterLike,
  options: SocketRateLimitOptions,
): SocketRateLimitGate {
  const { perIp, perUser } = options;
  if (perIp === undefined && perUser === undefined)
    throw new Error("svc: createSocketRateLimit needs a rate name in perIp, perUser or both");
  const ipv6Prefix = checkIpv6Prefix(options.ipv6Prefix, "createSocketRateLimit");
  const keyOf = options.key ?? ((request: Request) => clientAddress(request, ipv6Prefix));
  const onStoreError = options.onStoreError ?? "allow";
  return {
    async admitAddress(request) {
      if (perIp === undefined) return;
      const message = "Too many subscription sockets opened from this address; retry later.";
      await spendOrRefuse(limiter, perIp, await keyOf(request), onStoreError, message);
    },
    async admitUser(identity) {
      if (perUser === undefined) return;
      const message = "Too many subscription sockets opened for this user; retry later.";
      await spendOrRefuse(limiter, perUser, identity.userId, onStoreError, message);
    },
  };
}
