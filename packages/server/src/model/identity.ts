/**
 * Who is calling, as the configured `resolveIdentity` saw it. Plain data, so it
 * crosses into the shard intact. `userId` is the stable subject.
 *
 * @example
 * ```ts
 * const identity: Identity = { userId: "u1", teams: ["red"] };
 * ```
 */
export interface Identity {
  userId: string;
  [claim: string]: unknown;
}

/**
 * Who a call runs as: a signed-in `user`, an `anonymous` caller, or the app's
 * own `service` (a cron job or a queue consumer, never a client). Policies
 * tell the three apart with `ctx.auth.kind`.
 *
 * @example rule.callerIs("service")
 */
export type CallerKind = "user" | "anonymous" | "service";

/**
 * `ctx.auth`: the caller's identity, the same over every entry point.
 *
 * @example
 * ```ts
 * if (ctx.auth.kind === "anonymous") throw new SvcError("UNAUTHENTICATED", "Sign in first.");
 * ```
 */
export interface AuthContext {
  /** `user`, `anonymous` or `service`; see {@link CallerKind}. */
  readonly kind: CallerKind;
  /** The caller's user id, or `null` for anonymous and service calls. */
  readonly userId: string | null;
  /**
   * For service calls, what runs: `cron:<job>` or `queue:<queue>`; `null`
   * otherwise. Logged with failures and visible to policies.
   */
  readonly service: string | null;
  /** The full identity (session and user fields), or `null`. */
  getIdentity(): Promise<Identity | null>;
}

/**
 * Builds `ctx.auth` for a call: a service name makes it a service call (no
 * user, whatever identity came along), else the identity decides.
 *
 * @example authContext({ userId: "u1" }, null).kind // "user"
 */
export function authContext(identity: Identity | null, service: string | null): AuthContext {
  if (service !== null) {
    return { kind: "service", userId: null, service, getIdentity: async () => null };
  }
  return {
    kind: identity === null ? "anonymous" : "user",
    userId: identity?.userId ?? null,
    service: null,
    getIdentity: async () => identity,
  };
}
