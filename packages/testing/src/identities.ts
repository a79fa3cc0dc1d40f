import type { ApiKeyCaller, Identity } from "@svc/server";

/**
 * A signed-in user for {@link TestHarness.as}: what the test needs to say,
 * no sign-up. The harness shapes it as `sessionIdentity` (`@svc/auth`) does
 * in production, so `ctx.auth.getIdentity()` reads the same fields.
 *
 * @example
 * ```ts
 * const ann: TestUser = { userId: "ann", organizationId: "acme", role: "admin" };
 * ```
 */
export interface TestUser {
  userId: string;
  /** better-auth's active organization: `identity.session.activeOrganizationId`. */
  organizationId?: string;
  /** better-auth's admin role: `identity.user.role`. */
  role?: string;
  /** More fields of the user record (`identity.user`), e.g. `{ email: "ann@example.com" }`. */
  user?: Record<string, unknown>;
}

/**
 * An API key for {@link TestHarness.asApiKey}. A user's key names its owner;
 * an organization's key its organization (then no user calls).
 *
 * @example
 * ```ts
 * const key: TestApiKey = { ownerUserId: "ann", scopes: ["notes.readonly"] };
 * ```
 */
export interface TestApiKey {
  /** @default "test-key" */
  id?: string;
  ownerUserId?: string;
  ownerOrganizationId?: string;
  /** @default ["*"] */
  scopes?: readonly string[];
}

/**
 * The identity a signed-in user's call carries, shaped as `sessionIdentity`
 * shapes it: `userId`, `sessionId`, the `user` and the `session`.
 *
 * @example userIdentity({ userId: "ann" }).user // { id: "ann" }
 */
export function userIdentity(user: TestUser): Identity {
  if (typeof user.userId !== "string" || user.userId === "") {
    throw new TypeError("@svc/testing: t.as() needs a non-empty userId");
  }
  const sessionId = `test-session-${user.userId}`;
  return {
    userId: user.userId,
    sessionId,
    user: {
      ...user.user,
      id: user.userId,
      ...(user.role === undefined ? {} : { role: user.role }),
    },
    session: {
      id: sessionId,
      userId: user.userId,
      ...(user.organizationId === undefined ? {} : { activeOrganizationId: user.organizationId }),
    },
  };
}

/**
 * The identity an API key's call carries, shaped as `apiKeyIdentity`
 * (`@svc/auth`) shapes it: an organization's key calls as `apiKey:<id>`.
 *
 * @example apiKeyIdentity({ ownerUserId: "ann" }).apiKey?.scopes // ["*"]
 */
export function apiKeyIdentity(key: TestApiKey): Identity {
  const ownerUserId = key.ownerUserId ?? null;
  const ownerOrganizationId = key.ownerOrganizationId ?? null;
  if ((ownerUserId === null) === (ownerOrganizationId === null)) {
    throw new TypeError(
      "@svc/testing: t.asApiKey() needs exactly one owner: ownerUserId or ownerOrganizationId",
    );
  }
  const id = key.id ?? "test-key";
  const apiKey: ApiKeyCaller = {
    id,
    name: id,
    prefix: "svc_test",
    ownerUserId,
    ownerOrganizationId,
    scopes: [...(key.scopes ?? ["*"])],
  };
  return { userId: ownerUserId ?? `apiKey:${id}`, apiKey };
}
