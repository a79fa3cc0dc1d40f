import { checkIpv6Prefix } from "./address-key.ts";

/**
 * Bounds every subscription socket meets, enforced by the shard that holds
 * it with no store at all, so they hold in an app that configures nothing.
 * `createWorker({ socketLimits })` changes them; the worker hands them to
 * the shard with each socket (see `SocketGrant`).
 *
 * @example
 * ```ts
 * createWorker({ ..., socketLimits: { perIp: 500, perUser: 50 } });
 * ```
 * @see ../../../../docs/subscriptions.md
 */
export interface SocketLimits {
  /** Sockets open at once on one shard from one address (`cf-connecting-ip`). @default 100 */
  perIp?: number;
  /** Sockets open at once on one shard for one signed-in user. @default 20 */
  perUser?: number;
  /**
   * Sockets open at once on one shard in all, whoever opened them: the bound
   * that holds when callers come from ever more addresses and accounts.
   * @default 10000
   */
  perShard?: number;
  /**
   * Bits of an IPv6 caller's address that `perIp` counts as one address:
   * every address of one network of this size shares the bound.
   * @default 64
   */
  ipv6Prefix?: number;
  /** Frames a socket may send per second, once its burst is spent. @default 20 */
  framesPerSecond?: number;
  /**
   * Frames a socket may send at once (a fresh socket has them all): enough
   * for a client to resubscribe its 100 subscriptions after a reconnect.
   * @default 120
   */
  frameBurst?: number;
}

/** {@link SocketLimits} with every bound filled in. */
export type ResolvedSocketLimits = Required<SocketLimits>;

/** The bounds of an app that sets none. */
export const DEFAULT_SOCKET_LIMITS: ResolvedSocketLimits = Object.freeze({
  perIp: 100,
  perUser: 20,
  perShard: 10_000,
  ipv6Prefix: 64,
  framesPerSecond: 20,
  frameBurst: 120,
});

/**
 * Fills in the defaults and checks each bound is a positive integer;
 * a mistake throws when the worker is built, not when a socket opens.
 *
 * @example resolveSocketLimits({ perUser: 5 }).perIp // 100
 */
export function resolveSocketLimits(limits: SocketLimits = {}): ResolvedSocketLimits {
  const resolved = { ...DEFAULT_SOCKET_LIMITS, ...limits };
  for (const [name, value] of Object.entries(resolved)) {
    if (!Number.isSafeInteger(value) || value <= 0)
      throw new Error(`svc: socketLimits.${name} must be a positive integer`);
  }
  checkIpv6Prefix(resolved.ipv6Prefix, "socketLimits");
  return resolved;
}

/**
 * One socket's frame allowance: a token bucket of `frameBurst` frames
 * refilled at `framesPerSecond`. Kept in memory only: after hibernation a
 * socket starts full, which it would be anyway, since an object hibernates
 * only once its sockets have been quiet.
 *
 * @example
 * ```ts
 * const budget = new FrameBudget(limits);
 * if (!budget.spend()) ws.close(CLOSE.TOO_MANY_FRAMES, "too many frames");
 * ```
 */
export class FrameBudget {
  readonly #rate: number;
  readonly #burst: number;
  #tokens: number;
  #at: number;

  constructor(
    limits: Pick<ResolvedSocketLimits, "framesPerSecond" | "frameBurst">,
    now = Date.now(),
  ) {
    this.#rate = limits.framesPerSecond / 1000;
    this.#burst = limits.frameBurst;
    this.#tokens = limits.frameBurst;
    this.#at = now;
  }

  /** Takes one frame's token; `false` when none is left (the socket is flooding). */
  spend(now = Date.now()): boolean {
    this.#tokens = Math.min(this.#burst, this.#tokens + Math.max(0, now - this.#at) * this.#rate);
    this.#at = now;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}
