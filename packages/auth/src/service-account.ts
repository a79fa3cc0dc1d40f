import { SvcAuthError } from "./errors.ts";
import { signedSessionCookie } from "./session-cookie.ts";

/**
 * The user svc signs in as when a cron job or queue consumer calls
 * `ctx.authApi` with empty headers (the specification's server-to-server
 * case). Off unless configured: `withAuthPlugins(auth, { serviceAccount: {} })`.
 */
export interface ServiceAccountOptions {
  /** The account's email; it never receives mail. @default "service@svc.invalid" */
  email?: string;
  /** Its display name in the dashboard and audit trail. @default "svc service" */
  name?: string;
  /**
   * The admin plugin role it holds (e.g. `"admin"` to call `listUsers` or
   * `banUser`). Set on creation and restored if someone changes it.
   * @default the plugin's default role
   */
  role?: string;
  /** How long each minted session lives; a new one is minted a minute before. @default 300 */
  sessionSeconds?: number;
}

interface ServiceUser {
  id: string;
  role?: string | null;
}

/** The part of better-auth's context the service account uses. */
interface ServiceAuthContext {
  secret: string;
  authCookies: { sessionToken: { name: string } };
  internalAdapter: {
    findUserByEmail(email: string): Promise<{ user: ServiceUser } | null>;
    createUser(user: Record<string, unknown>): Promise<ServiceUser>;
    updateUser(id: string, data: Record<string, unknown>): Promise<unknown>;
    createSession(
      userId: string,
      dontRememberMe?: boolean,
      override?: Record<string, unknown>,
      overrideAll?: boolean,
    ): Promise<{ token: string }>;
    deleteSession(token: string): Promise<void>;
  };
}

/** An auth instance the service account can mint sessions on. */
export interface ServiceAuthSource {
  $context: PromiseLike<unknown>;
}

const REFRESH_MARGIN_MS = 60_000;

/**
 * Returns a function that answers a signed session `Cookie` header value for
 * the service account, creating the account on first use and minting a
 * short session through better-auth's own adapter (so it is an ordinary,
 * revocable session, listed under that user). One session is shared per
 * isolate until a minute before it expires; the one it replaces is deleted.
 *
 * @example
 * ```ts
 * const cookie = await serviceCredential(auth, { role: "admin" })();
 * await auth.api.listUsers({ query: {}, headers: new Headers({ cookie }) });
 * ```
 */
export function serviceCredential(
  auth: ServiceAuthSource,
  options: ServiceAccountOptions = {},
): () => Promise<string> {
  const email = (options.email ?? "service@svc.invalid").toLowerCase();
  const seconds = options.sessionSeconds ?? 300;
  if (!Number.isInteger(seconds) || seconds < 120 || seconds > 86_400) {
    throw new SvcAuthError(
      "AUTH_SERVICE_ACCOUNT_INVALID",
      "serviceAccount.sessionSeconds must be a whole number from 120 to 86400",
    );
  }
  let current: { cookie: string; token: string; refreshAt: number } | undefined;
  let minting: Promise<string> | undefined;

  const mint = async (): Promise<string> => {
    const context = (await auth.$context) as ServiceAuthContext;
    const adapter = context.internalAdapter;
    const found = await adapter.findUserByEmail(email);
    const user =
      found?.user ??
      (await adapter.createUser({
        email,
        name: options.name ?? "svc service",
        emailVerified: true,
        ...(options.role !== undefined ? { role: options.role } : {}),
      }));
    if (options.role !== undefined && user.role !== options.role) {
      await adapter.updateUser(user.id, { role: options.role });
    }
    const expiresAt = new Date(Date.now() + seconds * 1000);
    const session = await adapter.createSession(
      user.id,
      true,
      { expiresAt, ipAddress: "", userAgent: "svc service account" },
      true,
    );
    const previous = current;
    current = {
      token: session.token,
      cookie: await signedSessionCookie(
        context.secret,
        context.authCookies.sessionToken.name,
        session.token,
      ),
      refreshAt: expiresAt.getTime() - REFRESH_MARGIN_MS,
    };
    if (previous !== undefined) await adapter.deleteSession(previous.token).catch(() => {});
    return current.cookie;
  };

  return () => {
    if (current !== undefined && Date.now() < current.refreshAt)
      return Promise.resolve(current.cookie);
    minting ??= mint().finally(() => {
      minting = undefined;
    });
    return minting;
  };
}
