import type { ImpersonationLink } from "../contract/index.ts";
import type { AdminAnswer, AdminCall } from "../handler.ts";
import { LINK_PATH } from "../impersonation/link-page.ts";
import { consumeLink, createLink, LINK_TTL_SECONDS } from "../impersonation/link-store.ts";
import { isSameOriginPath } from "../impersonation/redirect.ts";
import { impersonableUser, impersonationDuration } from "../impersonation/session.ts";
import { Issues } from "../issues.ts";

/**
 * `POST users/:id/impersonation-link` with `{ reason?, durationSeconds?, redirectTo? }`:
 * "open the app as this user" without handling a token. Answers
 * `{ url, expiresAt }`, a one-time link on the app's own origin
 * (`/_svc/admin/auth/link/<code>`) that works for {@link LINK_TTL_SECONDS}
 * seconds; opening it shows a confirmation page, and confirming starts the
 * same bounded impersonation session as `POST users/:id/impersonate`, sets
 * it as the browser's better-auth session cookie and lands on `redirectTo`
 * (a path on the app's origin; default `options.impersonation.landingPath`).
 *
 * Same refusals as impersonate (admins `403` unless allowed, banned `409`),
 * checked again when the link is used. Only the code's hash is stored.
 *
 * @example
 * ```ts
 * POST /_svc/admin/auth/users/u1/impersonation-link { "reason": "ticket 4411" } → { url, expiresAt }
 * ```
 */
export async function createImpersonationLink(
  call: AdminCall<"impersonationLink">,
): Promise<AdminAnswer<"impersonationLink">> {
  const { audit, ctx } = call;
  const { environment } = ctx;
  const id = call.params.id;
  const body = call.body;
  const redirectTo = body.redirectTo ?? environment.impersonation.landingPath;
  if (!isSameOriginPath(redirectTo)) {
    const issues = new Issues("body");
    issues.add("redirectTo", "must be a path on the app's origin, starting with one /");
    issues.throwIfAny();
  }
  const durationSeconds = impersonationDuration(environment, body);
  await impersonableUser(environment, id);
  const link = await createLink(environment, {
    userId: id,
    operator: call.ctx.operator,
    reason: body.reason ?? null,
    durationSeconds,
    redirectTo,
  });
  audit.reason = body.reason ?? null;
  audit.detail = `link ${link.id} for a ${durationSeconds}s session, usable until ${link.expiresAt.toISOString()}`;
  try {
    await audit.writeOk();
  } catch (error) {
    // An unaudited link must not stay usable.
    await consumeLink(environment, link.code);
    throw error;
  }
  const answer: ImpersonationLink = {
    url: `${call.url.origin}${LINK_PATH}${link.code}`,
    expiresAt: link.expiresAt.toISOString(),
  };
  return answer;
}
