/**
 * Where a limited endpoint names the account it acts on: a body field, or
 * (two-factor) the user behind the sign-in challenge cookie or the session.
 */
export type AccountSource = "email" | "username" | "phoneNumber" | "newEmail" | "two-factor";

/**
 * The account each per-account limit counts, per endpoint: exactly the field
 * better-auth's handler of that path looks the account up by, never the first
 * identifier found in the body (a decoy `email` on `/sign-in/username` used to
 * open a new bucket per attempt). Paths are those of every plugin
 * `@svc/auth/plugins` re-exports; a path of a plugin that is not installed
 * never occurs. Two-factor endpoints name no account in their body: better-auth
 * finds it from the session, else from the signed `two_factor` cookie its
 * sign-in answered (a verification row whose value is the user id).
 *
 * @example
 * ```ts
 * AUTH_ACCOUNT_SOURCES["/sign-in/username"]; // "username"
 * ```
 */
export const AUTH_ACCOUNT_SOURCES = {
  "/sign-in/email": "email",
  "/sign-in/username": "username",
  "/sign-in/phone-number": "phoneNumber",
  "/sign-in/email-otp": "email",
  "/email-otp/verify-email": "email",
  "/email-otp/check-verification-otp": "email",
  "/email-otp/reset-password": "email",
  "/email-otp/change-email": "newEmail",
  "/phone-number/verify": "phoneNumber",
  "/phone-number/reset-password": "phoneNumber",
  "/request-password-reset": "email",
  "/forget-password/email-otp": "email",
  "/email-otp/request-password-reset": "email",
  "/phone-number/request-password-reset": "phoneNumber",
  "/sign-in/magic-link": "email",
  "/email-otp/send-verification-otp": "email",
  "/phone-number/send-otp": "phoneNumber",
  "/send-verification-email": "email",
  "/change-email": "newEmail",
  "/email-otp/request-email-change": "newEmail",
  "/two-factor/send-otp": "two-factor",
  "/two-factor/verify-totp": "two-factor",
  "/two-factor/verify-otp": "two-factor",
  "/two-factor/verify-backup-code": "two-factor",
} as const satisfies Record<string, AccountSource>;

/** A path of {@link AUTH_ACCOUNT_SOURCES}. */
export type AccountPath = keyof typeof AUTH_ACCOUNT_SOURCES;

/** Resolves the user behind a two-factor request (see `twoFactorAccount`). */
export type TwoFactorAccountResolver = () => Promise<string | undefined>;

/**
 * The account a request to `path` names, as a bucket key: `email:…`,
 * `username:…` and `phoneNumber:…` / `newEmail:…` from that path's own body
 * field (trimmed and lowercased, as better-auth lowercases emails and
 * usernames), `user:<id>` for two-factor; `undefined` when the path has no
 * account or the request names none (better-auth then refuses it anyway).
 * An email counts as its mailbox: a `+tag` in the local part is dropped
 * (`t2+7@example.com` spends `t2@example.com`'s budget), so tags cannot
 * multiply the sends one inbox receives. Only the key changes; better-auth
 * still gets the address as sent.
 *
 * @example
 * ```ts
 * await accountOf("/sign-in/username", { email: "decoy@x.io", username: " Annie " }, noChallenge);
 * // "username:annie"
 * ```
 */
export async function accountOf(
  path: string,
  fields: Readonly<Record<string, unknown>> | undefined,
  twoFactor: TwoFactorAccountResolver,
): Promise<string | undefined> {
  if (!Object.hasOwn(AUTH_ACCOUNT_SOURCES, path)) return undefined;
  const source: AccountSource = AUTH_ACCOUNT_SOURCES[path as AccountPath];
  if (source === "two-factor") {
    const userId = await twoFactor();
    return userId === undefined ? undefined : `user:${userId}`;
  }
  const value = fields !== undefined && Object.hasOwn(fields, source) ? fields[source] : undefined;
  if (typeof value !== "string" || value.trim() === "") return undefined;
  const normalized = value.trim().toLowerCase();
  const isEmail = source === "email" || source === "newEmail";
  return `${source}:${isEmail ? mailboxOf(normalized) : normalized}`;
}

/** The mailbox an address delivers to: its local part up to a `+` tag, and its domain. */
function mailboxOf(email: string): string {
  const at = email.lastIndexOf("@");
  const plus = email.indexOf("+");
  // A leading `+` (no local part before the tag) is kept: nothing is left to name a mailbox.
  if (at <= 0 || plus <= 0 || plus > at) return email;
  return `${email.slice(0, plus)}${email.slice(at)}`;
}
