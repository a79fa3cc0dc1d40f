/**
 * `name=value` of better-auth's session cookie for `token`, signed with the
 * auth secret exactly as better-auth signs it (HMAC-SHA-256, base64), so the
 * value works as a `Cookie` header against every endpoint.
 *
 * @example
 * ```ts
 * const cookie = await signedSessionCookie(context.secret, context.authCookies.sessionToken.name, token);
 * await auth.api.getSession({ headers: new Headers({ cookie }) });
 * ```
 */
export async function signedSessionCookie(
  secret: string,
  cookieName: string,
  token: string,
): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const signature = new Uint8Array(
    await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(token)),
  );
  const base64 = btoa(String.fromCharCode(...signature));
  return `${cookieName}=${encodeURIComponent(`${token}.${base64}`)}`;
}
