import type { ApiKeyCaller } from "./api-key.ts";

/**
 * Who is calling, as the configured `resolveIdentity` saw it. Plain data, so it
 * crosses into the shard intact. `userId` is the stable subject (for an
 * organization's API key, `apiKey:<id>`: no user calls). The claim `apiKey`
 * is reserved: set, the caller is that API key.
 *
 * @example
 * ```ts
 * const identity: Identity = { userId: "u1", teams: ["red"] };
 * ```
 */
export interface Identity {
  userId: string;
  /** Set by an API key resolver: the key that calls (then `ctx.auth.kind` is `apiKey`). */
  apiKey?: ApiKeyCaller;
  [claim: string]: unknown;
}

/**
 * Who a call runs as: a signed-in `user`, an `apiKey` (a machine client's
 * credential, owned by a user or an organization), an `anonymous` caller, or
 * the app's own `service` (a cron job or a queue consumer, never a client).
 * Policies tell them apart with `ctx.auth.kind`.
 *
 * @example rule.callerIs("service")
 */
export type CallerKind = "user" | "apiKey" | "anonymous" | "service";

/**
 * `ctx.auth`: the caller's identity, the same over every entry point.
 *
 * @example
 * ```ts
 * if (ctx.auth.kind === "anonymous") throw new SvcError("UNAUTHENTICATED", "Sign in first.");
 * ```
 */
export interface AuthContext {
  /** `user`, `apiKey`, `anonymous` or `service`; see {@link CallerKind}. */
  readonly kind: CallerKind;
  /**
   * The caller's user id: the signed-in user, or the owner of a user's API
   * key; `null` for an organization's API key, anonymous and service calls.
   */
  readonly userId: string | null;
  /** The API key calling (its id, owner and scopes, never its secret), or `null`. */
  readonly apiKey: ApiKeyCaller | null;
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
 * user, whatever identity came along), else the identity decides: an
 * `apiKey` claim makes it the key's call, on behalf of its owning user (if
 * any).
 *
 * @example authContext({ userId: "u1" }, null).kind // "user"
 */
export function authContext(identity: Identity | null, service: string | null): AuthContext {
  // `getIdentity` as methods, not named arrows: a `keepNames` bundle (wrangler's default) would
  // name each arrow with a `defineProperty` call on every call of a procedure.
  if (service !== null) {
    return {
      kind: "service",
      userId: null,
      service,
      apiKey: null,
      async getIdentity() {
        return null;
      },
    };
  }
  const apiKey = identity?.apiKey ?? null;
  if (apiKey !== null)
    return {
      kind: "apiKey",
      userId: apiKey.ownerUserId,
      service: null,
      apiKey,
      async getIdentity() {
        return identity;
      },
    };
  return {
    kind: identity === null ? "anonymous" : "user",
    userId: identity?.userId ?? null,
    service: null,
    apiKey: null,
    async getIdentity() {
      return identity;
    },
  };
}
