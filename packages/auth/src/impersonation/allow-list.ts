/**
 * The better-auth endpoints an impersonation session may call: reading the
 * session and the user's own data, signing out, editing the profile, and
 * the ordinary, non-credential organization operations (reading, switching
 * the active organization or team). Everything else answers `403`:
 * credentials and sign-in methods, sessions, organization membership,
 * invitations and roles, API keys, OAuth clients and consents, device codes,
 * one-time tokens, admin operations, and every endpoint a plugin adds later,
 * until it is allowed here or through `impersonationGuard({ allow })`.
 * Impersonation is for seeing and doing what the user sees and does, for a
 * bounded time: nothing it does may outlive it or reach past the user.
 *
 * Matched by exact path after better-auth's base path, as the endpoint
 * declares it (`/reset-password/:token`, not the token).
 *
 * @example
 * ```ts
 * IMPERSONATION_ALLOWED_PATHS.has("/get-session"); // true
 * IMPERSONATION_ALLOWED_PATHS.has("/organization/invite-member"); // false
 * ```
 */
export const IMPERSONATION_ALLOWED_PATHS: ReadonlySet<string> = new Set([
  // The session and the user's own data.
  "/get-session",
  "/sign-out",
  "/update-user",
  "/list-accounts",
  "/passkey/list-user-passkeys",
  // Public or read-only helpers.
  "/ok",
  "/error",
  "/jwks",
  "/is-username-available",
  // Organizations: reading, and switching what is active (no membership change).
  "/organization/list",
  "/organization/get-full-organization",
  "/organization/get-organization",
  "/organization/get-active-member",
  "/organization/get-active-member-role",
  "/organization/list-members",
  "/organization/list-invitations",
  "/organization/list-user-invitations",
  "/organization/get-invitation",
  "/organization/list-teams",
  "/organization/list-team-members",
  "/organization/list-user-teams",
  "/organization/has-permission",
  "/organization/check-slug",
  "/organization/set-active",
  "/organization/set-active-team",
]);

/** `update-user` fields that are sign-in identifiers; name and image stay editable. */
const SIGN_IN_FIELDS = ["email", "username", "displayUsername", "phoneNumber"] as const;

/**
 * Whether an impersonation session may call `path` with `body`: the path is
 * on {@link IMPERSONATION_ALLOWED_PATHS} or on `extra` (an app's own
 * additions), and an `update-user` changes no sign-in identifier.
 *
 * @example
 * ```ts
 * isAllowedWhileImpersonating("/get-session", undefined); // true
 * isAllowedWhileImpersonating("/update-user", { name: "Ann" }); // true
 * isAllowedWhileImpersonating("/update-user", { username: "x" }); // false
 * isAllowedWhileImpersonating("/organization/invite-member", { role: "owner" }); // false
 * ```
 */
export function isAllowedWhileImpersonating(
  path: string,
  body: unknown,
  extra: ReadonlySet<string> = new Set(),
): boolean {
  if (!IMPERSONATION_ALLOWED_PATHS.has(path) && !extra.has(path)) return false;
  if (path !== "/update-user" || typeof body !== "object" || body === null) return true;
  return !SIGN_IN_FIELDS.some((field) => Object.hasOwn(body, field));
}
