import { signedSessionCookie } from "../../session-cookie.ts";
import type { AdminAnswer, AdminCall } from "../handler.ts";
import {
  createImpersonationSession,
  impersonableUser,
  impersonationDuration,
} from "../impersonation/session.ts";

/**
 * `POST users/:id/impersonate` with `{ reason?, durationSeconds? }`: creates a
 * better-auth session for the user (through its internal adapter, so it is
 * an ordinary session everywhere) that expires after `durationSeconds`
 * (default and bound: `options.impersonation`, 1 h each by default) and
 * records the operator in `session.impersonatedBy` (`svc-operator:<name>`),
 * which also hides it from the user's own `list-sessions`. Answers the
 * session token: the only token this surface ever returns, as is, and as a
 * ready `Cookie` header value (signed as better-auth signs its cookie).
 * Ending it early is revoking the session (`DELETE users/:id/sessions/:sessionId`).
 * For a browser, `POST users/:id/impersonation-link` is the way that never
 * shows a token.
 *
 * Refuses admins unless `options.impersonation.allowAdmins` (`403`) and banned
 * users (`409`). The audit record (with the reason) is written before the
 * token leaves; if it cannot be, the session is revoked and the call fails.
 *
 * @example
 * ```ts
 * POST /_svc/admin/auth/users/u1/impersonate { "reason": "ticket 4411" } → { token, sessionId, userId, expiresAt, cookie }
 * ```
 */
export async function impersonateUser(
  call: AdminCall<"impersonate">,
): Promise<AdminAnswer<"impersonate">> {
  const { audit, ctx } = call;
  const { environment } = ctx;
  const { auth } = environment;
  const id = call.params.id;
  const body = call.body;
  const durationSeconds = impersonationDuration(environment, body);
  await impersonableUser(environment, id);
  const session = await createImpersonationSession(environment, {
    userId: id,
    operator: call.ctx.operator,
    durationSeconds,
    request: call.request,
  });
  audit.reason = body.reason ?? null;
  audit.detail = `session ${session.id} until ${session.expiresAt.toISOString()}`;
  try {
    await audit.writeOk();
  } catch (error) {
    await auth.internalAdapter.deleteSession(session.token);
    throw error;
  }
  return {
    token: session.token,
    sessionId: session.id,
    userId: id,
    expiresAt: session.expiresAt.toISOString(),
    cookie: await signedSessionCookie(
      auth.secret,
      auth.authCookies.sessionToken.name,
      session.token,
    ),
  };
}
