/**
 * Plain lists of the admin contract, in a module of their own so a browser
 * bundle that needs one (the audit screen's filter) does not load the
 * validators with it.
 */
import { DATA_AUDIT_ACTIONS } from "@svc/server/routes/contract";

/**
 * Every action the audit trail records, as stored in `action` and accepted by
 * `GET audit?action=`.
 *
 * @example
 * ```ts
 * AUDIT_ACTIONS.includes("user.ban"); // true
 * ```
 */
export const AUDIT_ACTIONS = [
  "user.create",
  "user.update",
  "user.import",
  "user.export",
  "user.delete",
  "user.role",
  "user.ban",
  "user.unban",
  "user.password",
  "user.sign-in-link",
  "user.impersonate",
  "user.impersonation-link",
  "impersonation.link-used",
  "impersonation.end",
  "impersonation.refused",
  "session.revoke",
  "session.revoke-all",
  "two-factor.disable",
  "passkey.delete",
  "account.unlink",
  "organization.create",
  "organization.update",
  "organization.delete",
  "member.add",
  "member.remove",
  "member.role",
  "invitation.create",
  "invitation.resend",
  "invitation.cancel",
  "api-key.create",
  "api-key.revoke",
  // Data actions of createWorker's /_svc/admin/data/ routes, recorded through recordDataAction.
  ...DATA_AUDIT_ACTIONS,
] as const;

/** One of {@link AUDIT_ACTIONS}. */
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * Every sign-in link kind, in the order the dashboard offers them.
 *
 * @example
 * ```ts
 * SIGN_IN_LINK_KINDS.includes("magic-link"); // true
 * ```
 */
export const SIGN_IN_LINK_KINDS = ["magic-link", "password-setup"] as const;

/**
 * The header that carries a D1 Sessions API bookmark between an admin client
 * (the dashboard) and the admin API: every answer sends one; a client sends
 * the latest back, so its reads on a D1 read replica are never older than
 * what it saw or wrote (read-your-writes).
 *
 * @example
 * ```ts
 * const bookmark = response.headers.get(D1_BOOKMARK_HEADER);
 * ```
 */
export const D1_BOOKMARK_HEADER = "x-svc-d1-bookmark";
