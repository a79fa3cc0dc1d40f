import { SvcError } from "@svc/server";
import { AuditScope } from "../audit/trail.ts";
import type { AdminEnvironment } from "../environment.ts";
import { toAdminError } from "../errors.ts";
import { sessionSetCookies } from "./cookies.ts";
import { confirmPage, errorPage, linkHeaders } from "./link-page.ts";
import { consumeLink, peekLink, type StoredLink } from "./link-store.ts";
import { createImpersonationSession, impersonableUser } from "./session.ts";

const GONE = "This link was already used or has expired; create a new one from the dashboard.";
/** `Sec-Fetch-Site` values of a form the link page itself posted (or a typed URL). */
const OWN_SITES = new Set(["same-origin", "none"]);

/**
 * Answers `GET` and `POST /_svc/admin/auth/link/<code>`, the one-time links
 * of `POST users/:id/impersonation-link`. No admin token: the code is the
 * credential.
 *
 * - `GET` shows who will be signed in as whom ({@link confirmPage}) and uses
 *   nothing, so unfurlers and prefetchers cannot burn the link.
 * - `POST` uses the link (atomically: of two concurrent posts one wins),
 *   checks the user again (banned or promoted since: refused and audited),
 *   starts the bounded impersonation session, audits
 *   `impersonation.link-used`, sets the session cookie and `303`s to the
 *   link's `redirectTo`. A post from another site is refused (`403`).
 * - An unknown, used or expired code is a `410` page; nothing answers a
 *   stack trace.
 *
 * @example
 * ```ts
 * handleLink: (request, { path }) => handleImpersonationLink(environment, request, path),
 * ```
 */
export async function handleImpersonationLink(
  environment: AdminEnvironment,
  request: Request,
  code: string,
): Promise<Response> {
  try {
    if (!environment.capabilities.userActions) return errorPage(404, "Not found.");
    if (request.method === "GET" || request.method === "HEAD") return await show(environment, code);
    if (request.method === "POST") return await use(environment, request, code);
    const response = errorPage(405, "Open this link in a browser.");
    response.headers.set("allow", "GET, POST");
    return response;
  } catch (error) {
    console.error("svc/auth admin: an impersonation link failed", error);
    return errorPage(500, "Something went wrong; create a new link from the dashboard.");
  }
}

/** HTTP status of each refusal {@link impersonableUser} throws. */
const REFUSAL_STATUS: Readonly<Record<string, number>> = {
  NOT_FOUND: 404,
  FORBIDDEN: 403,
  CONFLICT: 409,
};

async function show(environment: AdminEnvironment, code: string): Promise<Response> {
  const link = await peekLink(environment, code);
  if (link === null) return errorPage(410, GONE);
  const user = await impersonable(environment, link);
  if (user instanceof SvcError) return refusedPage(user);
  return confirmPage({
    email: String(user.email),
    operator: link.operator,
    durationSeconds: link.durationSeconds,
  });
}

async function use(
  environment: AdminEnvironment,
  request: Request,
  code: string,
): Promise<Response> {
  const site = request.headers.get("sec-fetch-site");
  if (site !== null && !OWN_SITES.has(site)) {
    return errorPage(403, "This link can only be used from its own page.");
  }
  const link = await consumeLink(environment, code);
  if (link === null) return errorPage(410, GONE);
  const audit = new AuditScope(environment, link.operator, "impersonation.link-used", {
    targetType: "user",
    targetId: link.userId,
    userId: link.userId,
  });
  audit.reason = link.reason;
  const user = await impersonable(environment, link);
  if (user instanceof SvcError) {
    await audit.finish(new SvcError(user.code, `link ${link.id}: ${user.message}`));
    return refusedPage(user);
  }
  const session = await createImpersonationSession(environment, {
    userId: link.userId,
    operator: link.operator,
    durationSeconds: link.durationSeconds,
    request,
  });
  audit.target = { targetType: "session", targetId: session.id, userId: link.userId };
  audit.detail = `link ${link.id} used: session ${session.id} until ${session.expiresAt.toISOString()}`;
  try {
    await audit.writeOk();
  } catch (error) {
    await environment.auth.internalAdapter.deleteSession(session.token);
    throw error;
  }
  const headers = linkHeaders({ location: link.redirectTo });
  const maxAge = Math.floor((session.expiresAt.getTime() - Date.now()) / 1000);
  for (const cookie of await sessionSetCookies(environment.auth, session.token, maxAge)) {
    headers.append("set-cookie", cookie);
  }
  return new Response(null, { status: 303, headers });
}

/** The user row, or the refusal saying why they can no longer be impersonated. */
async function impersonable(environment: AdminEnvironment, link: StoredLink) {
  try {
    return await impersonableUser(environment, link.userId);
  } catch (error) {
    const normalized = toAdminError(error);
    if (normalized instanceof SvcError && normalized.code in REFUSAL_STATUS) return normalized;
    throw error;
  }
}

function refusedPage(refusal: SvcError): Response {
  return errorPage(REFUSAL_STATUS[refusal.code] ?? 409, refusal.message);
}
