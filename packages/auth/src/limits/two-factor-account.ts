import { SvcError } from "@svc/server";

/**
 * The part of better-auth's `AuthContext` (`auth.$context`) that finds the
 * user behind a two-factor request.
 */
export interface TwoFactorLookup {
  createAuthCookie(name: string): { name: string };
  authCookies: { sessionToken: { name: string } };
  internalAdapter: {
    findSession(token: string): Promise<{ session: { userId: string } } | null>;
    findVerificationValue(identifier: string): Promise<{ value: string } | null>;
  };
}

/** better-auth's two-factor plugin names its challenge cookie so (`TWO_FACTOR_COOKIE_NAME`). */
const TWO_FACTOR_COOKIE = "two_factor";

/** better-call's cookie value decoding: percent-decoded only when it holds a `%`. */
function tryDecode(value: string): string {
  try {
    return value.includes("%") ? decodeURIComponent(value) : value;
  } catch {
    return value;
  }
}

/**
 * Every value the `Cookie` header gives `name`, in order (better-call reads
 * the first, better-auth's own parser the last).
 */
function cookieValues(header: string, name: string): string[] {
  const values: string[] = [];
  for (const pair of header.split(";")) {
    const eq = pair.indexOf("=");
    if (eq === -1 || pair.slice(0, eq).trim() !== name) continue;
    let value = pair.slice(eq + 1).trim();
    if (value.codePointAt(0) === 34) value = value.slice(1, -1);
    values.push(tryDecode(value));
  }
  return values;
}

/** The value a signed cookie (`<value>.<signature>`) carries. */
const unsigned = (signed: string) => signed.slice(0, Math.max(0, signed.lastIndexOf(".")));

/** The session token a request carries: `Authorization: Bearer` first (as the bearer plugin does), else the cookie. */
function sessionToken(request: Request, cookieName: string): string | undefined {
  const bearer = /^bearer\s+(\S+)$/i.exec((request.headers.get("authorization") ?? "").trim());
  if (bearer?.[1]) return tryDecode(bearer[1]).split(".")[0];
  const [cookie] = cookieValues(request.headers.get("cookie") ?? "", cookieName);
  return cookie === undefined ? undefined : unsigned(cookie);
}

/**
 * The user behind a two-factor request, as better-auth finds them: the user
 * of the sign-in challenge (the signed `two_factor` cookie names a
 * verification row whose value is the user id), else the signed-in user.
 * The signature is not checked here: a forged cookie only makes svc count a
 * user better-auth then refuses anyway, while a value better-auth accepts is
 * always found. A request carrying the challenge cookie more than once is
 * refused (`400`): better-call reads the first, better-auth's bearer hook
 * rewrites the header keeping the last, and only one can be counted.
 *
 * @example
 * ```ts
 * await twoFactorAccount(await auth.$context, request); // "u_123" or undefined
 * ```
 */
export async function twoFactorAccount(
  context: TwoFactorLookup,
  request: Request,
): Promise<string | undefined> {
  const challengeCookie = context.createAuthCookie(TWO_FACTOR_COOKIE).name;
  const challenges = cookieValues(request.headers.get("cookie") ?? "", challengeCookie);
  if (challenges.length > 1) {
    throw new SvcError("BAD_REQUEST", "The two-factor cookie is sent more than once.");
  }
  const identifier = challenges[0] === undefined ? "" : unsigned(challenges[0]);
  if (identifier !== "") {
    const challenge = await context.internalAdapter.findVerificationValue(identifier);
    if (challenge) return challenge.value;
  }
  const token = sessionToken(request, context.authCookies.sessionToken.name);
  if (!token) return undefined;
  const found = await context.internalAdapter.findSession(token);
  return found?.session.userId;
}
