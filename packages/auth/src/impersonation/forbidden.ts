/**
 * better-auth endpoints an impersonation session may not call. Impersonation
 * is for seeing and doing what the user sees and does, for a bounded time; so
 * nothing that outlives it or reaches past it is allowed:
 *
 * - credentials and sign-in methods (password, email, phone, passkeys, 2FA,
 *   linked accounts, API keys, OAuth consents and clients, device approval,
 *   one-time tokens): each could mint access that survives the impersonation;
 * - other sessions (list: it answers their tokens; revoke: it signs the user
 *   out elsewhere) and the account itself (delete).
 *
 * Matched by exact path, after better-auth's base path. Paths of plugins that
 * are not installed simply never occur.
 */
export const IMPERSONATION_FORBIDDEN_PATHS: ReadonlySet<string> = new Set([
  "/change-password",
  "/change-email",
  "/email-otp/change-email",
  "/email-otp/request-email-change",
  "/phone-number/verify",
  "/delete-user",
  "/delete-user/callback",
  "/delete-anonymous-user",
  "/list-sessions",
  "/revoke-session",
  "/revoke-sessions",
  "/revoke-other-sessions",
  "/multi-session/list-device-sessions",
  "/multi-session/revoke",
  "/link-social",
  "/unlink-account",
  "/get-access-token",
  "/refresh-token",
  "/account-info",
  "/passkey/generate-register-options",
  "/passkey/verify-registration",
  "/passkey/delete-passkey",
  "/passkey/update-passkey",
  "/two-factor/enable",
  "/two-factor/disable",
  "/two-factor/generate-backup-codes",
  "/two-factor/get-totp-uri",
  "/two-factor/view-backup-codes",
  "/api-key/create",
  "/api-key/update",
  "/api-key/delete",
  "/one-time-token/generate",
  "/device/approve",
  "/oauth2/consent",
  "/oauth2/update-consent",
  "/oauth2/create-client",
  "/oauth2/update-client",
  "/oauth2/client/rotate-secret",
]);

/** `update-user` fields that are sign-in identifiers; name and image stay editable. */
const SIGN_IN_FIELDS = ["email", "username", "displayUsername", "phoneNumber"] as const;

/**
 * Whether a request to `path` with `body` is refused to an impersonation session.
 *
 * @example
 * ```ts
 * isForbiddenWhileImpersonating("/list-sessions", undefined); // true
 * isForbiddenWhileImpersonating("/update-user", { name: "Ann" }); // false
 * isForbiddenWhileImpersonating("/update-user", { username: "x" }); // true
 * ```
 */
export function isForbiddenWhileImpersonating(path: string, body: unknown): boolean {
  if (IMPERSONATION_FORBIDDEN_PATHS.has(path)) return true;
  if (path !== "/update-user" || typeof body !== "object" || body === null) return false;
  return SIGN_IN_FIELDS.some((field) => Object.hasOwn(body, field));
}
