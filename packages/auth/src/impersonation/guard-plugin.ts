import type { BetterAuthOptions, BetterAuthPlugin } from "better-auth";
import { APIError, createAuthMiddleware, getSessionFromCtx } from "better-auth/api";
import { decodeCookieCache, deleteSessionCookie, getChunkedCookie } from "better-auth/cookies";
import { OPERATOR_PREFIX } from "../admin/records.ts";
import { AUDIT_MODEL } from "../admin/schema-plugin.ts";
import { IMPERSONATION_GUARD_PLUGIN_ID } from "../svc-plugin-ids.ts";
import { isAllowedWhileImpersonating } from "./allow-list.ts";

const STOP_PATH = "/admin/stop-impersonating";

/** The session fields the guard reads (better-auth's admin plugin adds `impersonatedBy`). */
interface GuardedSession {
  id: string;
  token: string;
  userId: string;
  expiresAt: Date;
  impersonatedBy?: string | null;
}

type Context = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/** The operator as the audit trail names them: the admin token's name, or the admin user's id. */
function operatorOf(impersonatedBy: string): string {
  return impersonatedBy.startsWith(OPERATOR_PREFIX)
    ? impersonatedBy.slice(OPERATOR_PREFIX.length)
    : impersonatedBy;
}

async function audit(
  ctx: Context,
  session: GuardedSession,
  action: "impersonation.end" | "impersonation.refused",
  detail: string,
): Promise<void> {
  await ctx.context.adapter.create({
    model: AUDIT_MODEL,
    data: {
      at: new Date(),
      operator: operatorOf(session.impersonatedBy ?? ""),
      action,
      targetType: "session",
      targetId: session.id,
      userId: session.userId,
      outcome: action === "impersonation.end" ? "ok" : "error",
      detail,
      reason: null,
    },
  });
}

/** The token of an `Authorization: Bearer` header, parsed as better-auth's `bearer()` reads it. */
function bearerToken(ctx: Context): string | undefined {
  const header = ctx.request?.headers.get("authorization") || ctx.headers?.get("authorization");
  if (header?.slice(0, 7).toLowerCase() !== "bearer ") return undefined;
  let token = header.slice(7).trim();
  try {
    token = decodeURIComponent(token);
  } catch {
    // Not percent-encoding: better-auth's bearer plugin uses the value as sent.
  }
  // A signed bearer value is `<token>.<signature>`; the token alone finds the row.
  return token.split(".")[0] || undefined;
}

/**
 * The session in better-auth's cookie cache (`session.cookieCache`), when
 * it is on and the cached copy has not run out. An endpoint runs as that
 * copy without asking the database while it lasts (`maxAge`, 5 minutes by
 * default), so an impersonation already ended, its session row deleted,
 * still reached any endpoint through a `session_data` cookie kept from it:
 * the live sessions below found nothing to refuse.
 */
async function cookieCachedSession(ctx: Context): Promise<GuardedSession | null> {
  if (ctx.context.options.session?.cookieCache?.enabled !== true) return null;
  const cookie = getChunkedCookie(ctx, ctx.context.authCookies.sessionData.name);
  if (!cookie) return null;
  const cached = await decodeCookieCache(ctx, cookie).catch(() => null);
  if (!cached || cached.expiresAt < Date.now()) return null;
  return (cached.session.session as GuardedSession | undefined) ?? null;
}

/**
 * Every session the request's credentials name: the cookie's and the
 * `Authorization: Bearer` token's, and the cookie cache's copy (see
 * {@link cookieCachedSession}). Why both: the `bearer` plugin turns the
 * header into the session cookie in its own before hook, replacing any
 * cookie, but better-auth applies hook results only after every before hook
 * ran, so this hook sees the two apart; the endpoint runs as the bearer's
 * session when there is one, the cookie's otherwise. Deciding on one of them
 * let an operator's own cookie beside an impersonation bearer through. Read
 * as the endpoint would (better-auth's cookie cache included) but leaving no
 * trace: the endpoint still reads, and refreshes, its session itself.
 */
async function callerSessions(ctx: Context): Promise<GuardedSession[]> {
  const sessions: GuardedSession[] = [];
  if (ctx.headers?.get("cookie")) {
    const cached = ctx.context.session;
    const fromCookie = await getSessionFromCtx(ctx, { disableRefresh: true });
    ctx.context.session = cached;
    if (fromCookie) sessions.push(fromCookie.session as GuardedSession);
  }
  const token = bearerToken(ctx);
  if (token !== undefined) {
    const found = await ctx.context.internalAdapter.findSession(token);
    if (found && found.session.expiresAt >= new Date()) {
      sessions.push(found.session as GuardedSession);
    }
  }
  const cached = await cookieCachedSession(ctx);
  if (cached !== null) sessions.push(cached);
  return sessions;
}

/**
 * Keeps an impersonation session inside the bound it was given: better-auth
 * refreshes a session whose expiry is near by moving `expiresAt` a full
 * `expiresIn` (7 days) ahead, which turned a 2-minute impersonation into a
 * 7-day one on its first use. The refresh may still run (it rewrites the
 * cookie); the stored `expiresAt` stays where the admin API put it.
 */
const keepImpersonationExpiry = async (
  data: Partial<GuardedSession> & Record<string, unknown>,
  context: { context: { session: { session: object } | null } } | null,
) => {
  if (!("expiresAt" in data)) return;
  const current = context?.context.session?.session as GuardedSession | undefined;
  if (!current?.impersonatedBy) return;
  return { data: { ...data, expiresAt: current.expiresAt } };
};

/** Options of {@link impersonationGuard}. */
export interface ImpersonationGuardOptions {
  /**
   * Further better-auth paths (after the base path, as the endpoint declares
   * them) an impersonation session may call, beyond
   * `IMPERSONATION_ALLOWED_PATHS`: an app's own plugin endpoint that only
   * reads, say. Allow nothing that changes credentials, sessions or
   * memberships: it would outlive the impersonation.
   */
  allow?: readonly string[];
}

/**
 * svc's guard of impersonation sessions, appended by `createAuth` to every
 * instance (put `impersonationGuard({ allow })` in `plugins` yourself to
 * allow more). While a session has `impersonatedBy` set:
 *
 * - its `expiresAt` never moves (no refresh past the bound the admin API answered);
 * - every endpoint not allowed by {@link isAllowedWhileImpersonating} (an
 *   allow-list: a plugin's new endpoints are refused until allowed) answers
 *   `403` (`IMPERSONATION_FORBIDDEN`) and the attempt is written to the admin
 *   audit trail (`impersonation.refused`, with the operator and the path);
 * - better-auth's `POST /admin/stop-impersonating` on an impersonation started
 *   by an svc operator (whose `impersonatedBy` is no user, so better-auth
 *   answered 500) ends it: the session is deleted, its cookie cleared, and
 *   `impersonation.end` audited; it answers `{ "status": true }`.
 *
 * @example
 * ```ts
 * createAuth({ ...options, plugins: [...plugins, impersonationGuard({ allow: ["/billing/summary"] })] });
 * ```
 */
export function impersonationGuard(options: ImpersonationGuardOptions = {}) {
  const extra: ReadonlySet<string> = new Set(options.allow ?? []);
  return {
    id: IMPERSONATION_GUARD_PLUGIN_ID,
    init: () => ({
      options: { databaseHooks: { session: { update: { before: keepImpersonationExpiry } } } },
    }),
    hooks: {
      before: [
        {
          matcher: (ctx) =>
            ctx.path === STOP_PATH || !isAllowedWhileImpersonating(ctx.path ?? "", ctx.body, extra),
          handler: createAuthMiddleware(async (ctx) => {
            // Any credential naming an impersonation decides: the endpoint may run as it.
            const session = (await callerSessions(ctx)).find((found) => found.impersonatedBy);
            if (!session?.impersonatedBy) return;
            if (ctx.path === STOP_PATH) {
              // better-auth's own endpoint handles admin-user impersonations. A session
              // row already gone (a cached copy ended before) is deleted again: a no-op.
              if (!session.impersonatedBy.startsWith(OPERATOR_PREFIX)) return;
              await ctx.context.internalAdapter.deleteSession(session.token);
              deleteSessionCookie(ctx);
              await audit(ctx, session, "impersonation.end", `ended with ${STOP_PATH}`);
              return ctx.json({ status: true });
            }
            await audit(ctx, session, "impersonation.refused", `refused ${ctx.path}`);
            throw new APIError("FORBIDDEN", {
              code: "IMPERSONATION_FORBIDDEN",
              message: `An impersonation session may not call ${ctx.path}.`,
            });
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}

type Plugins = NonNullable<BetterAuthOptions["plugins"]>;

/**
 * `plugins` with {@link impersonationGuard} appended, unless it is already
 * there (options read back from an auth instance carry it).
 *
 * @example
 * ```ts
 * betterAuth({ ...options, plugins: withImpersonationGuard(options.plugins) });
 * ```
 */
export function withImpersonationGuard(plugins: Plugins = []): Plugins {
  if (plugins.some((plugin) => plugin.id === IMPERSONATION_GUARD_PLUGIN_ID)) return plugins;
  return [...plugins, impersonationGuard()];
}
