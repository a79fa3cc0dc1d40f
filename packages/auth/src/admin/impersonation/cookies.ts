import { signedSessionCookie } from "../../session-cookie.ts";
import type { AdminAuthContext, SessionCookie } from "../environment.ts";

/**
 * The `Set-Cookie` values that make a browser's better-auth session `token`,
 * for `maxAgeSeconds`: the session cookie, signed and with the attributes
 * better-auth gives it (HttpOnly, `Secure` and the `__Secure-` name on
 * https, SameSite=Lax, Path=/, its domain), plus the expiry of the cookies
 * that belong to whatever session the browser had before (the cached
 * session data and "don't remember me"), so nothing of it lingers.
 *
 * @example
 * ```ts
 * for (const value of await sessionSetCookies(auth, token, 3600)) headers.append("set-cookie", value);
 * ```
 */
export async function sessionSetCookies(
  auth: AdminAuthContext,
  token: string,
  maxAgeSeconds: number,
): Promise<string[]> {
  const { sessionToken, sessionData, dontRememberToken } = auth.authCookies;
  const session = await signedSessionCookie(auth.secret, sessionToken.name, token);
  return [
    `${session}; ${attributesOf(sessionToken, maxAgeSeconds)}`,
    `${sessionData.name}=; ${attributesOf(sessionData, 0)}`,
    `${dontRememberToken.name}=; ${attributesOf(dontRememberToken, 0)}`,
  ];
}

function attributesOf(cookie: SessionCookie, maxAgeSeconds: number): string {
  const { attributes } = cookie;
  const sameSite = attributes.sameSite ?? "lax";
  const parts = [
    `Max-Age=${maxAgeSeconds}`,
    `Path=${attributes.path ?? "/"}`,
    `SameSite=${sameSite.charAt(0).toUpperCase()}${sameSite.slice(1).toLowerCase()}`,
  ];
  if (attributes.domain) parts.push(`Domain=${attributes.domain}`);
  if (attributes.httpOnly !== false) parts.push("HttpOnly");
  if (attributes.secure) parts.push("Secure");
  return parts.join("; ");
}
