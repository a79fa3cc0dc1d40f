import { SvcError, v } from "@svc/server";
import { signedSessionCookie } from "../../session-cookie.ts";
import { Issues, json, readBody } from "../http.ts";
import { isBanInForce, OPERATOR_PREFIX } from "../records.ts";
import type { ActionCall, ParamsOf } from "../router.ts";
import { isAdmin } from "./guards.ts";
import { loadUserRow } from "./load.ts";

const BODY = v.object({ reason: v.optional(v.string()), durationSeconds: v.optional(v.number()) });
const MAX_REASON = 1000;

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
export async function impersonateUser(call: ActionCall<ParamsOf<"users/:id">>): Promise<Response> {
  const { environment, audit } = call;
  const { impersonation, auth } = environment;
  const id = call.params.id;
  const body = await readBody(call.request, BODY);
  const duration = body.durationSeconds ?? impersonation.defaultDurationSeconds;
  const issues = new Issues("body");
  if (!Number.isInteger(duration) || duration < 60 || duration > impersonation.maxDurationSeconds) {
    issues.add(
      "durationSeconds",
      `must be a whole number of seconds from 60 to ${impersonation.maxDurationSeconds}`,
    );
  }
  if (body.reason !== undefined && body.reason.length > MAX_REASON) {
    issues.add("reason", `must be at most ${MAX_REASON} characters`);
  }
  issues.throwIfAny();
  const row = await loadUserRow(environment, id);
  if (isAdmin(environment, row) && !impersonation.allowAdmins) {
    throw new SvcError(
      "FORBIDDEN",
      "Impersonating an admin user is not allowed (createAuthAdmin option impersonation.allowAdmins).",
    );
  }
  if (isBanInForce(row, Date.now())) {
    throw new SvcError("CONFLICT", "The user is banned; a banned user cannot have a session.");
  }
  const expiresAt = new Date(Date.now() + duration * 1000);
  const session = await auth.internalAdapter.createSession(
    id,
    true,
    {
      impersonatedBy: `${OPERATOR_PREFIX}${call.operator}`,
      expiresAt,
      ipAddress: call.request.headers.get("cf-connecting-ip") ?? "",
      userAgent: call.request.headers.get("user-agent") ?? "",
    },
    true,
  );
  audit.reason = body.reason ?? null;
  audit.detail = `session ${session.id} until ${expiresAt.toISOString()}`;
  try {
    await audit.writeOk();
  } catch (error) {
    await auth.internalAdapter.deleteSession(session.token);
    throw error;
  }
  return json({
    token: session.token,
    sessionId: session.id,
    userId: id,
    expiresAt: expiresAt.toISOString(),
    cookie: await signedSessionCookie(
      auth.secret,
      auth.authCookies.sessionToken.name,
      session.token,
    ),
  });
}
