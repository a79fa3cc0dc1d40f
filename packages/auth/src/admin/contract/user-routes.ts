/** The routes of `/_svc/admin/auth/` about users, declared once (see `routes.ts`). */
import { fileAnswer, rawBody, route, v } from "@svc/server/routes/contract";
import {
  adminImportReport,
  createdUser,
  impersonation,
  impersonationLink,
  userDetail,
  userPage,
} from "./answers.ts";
import {
  banBody,
  impersonateBody,
  impersonationLinkBody,
  newUser,
  noFields,
  passwordBody,
  roleChange,
  signInLinkBody,
  userChanges,
} from "./bodies.ts";
import { exportQuery, importQuery, userQuery } from "./queries.ts";
import {
  adminAccount,
  adminPasskey,
  adminSession,
  adminUser,
  adminUserMembership,
  signInLinkOutcome,
} from "./shapes.ts";

const withUser = v.object({ user: adminUser });
const deleted = v.object({ deleted: v.literal(true) });

/**
 * The user routes, in matching order (`users/export` before `users/:id`).
 *
 * @example
 * ```ts
 * USER_ROUTES.banUser.path; // "users/:id/ban"
 * ```
 */
export const USER_ROUTES = {
  listUsers: route({
    method: "GET",
    path: "users",
    summary: "One page of users, the total matching and the next cursor",
    query: userQuery,
    answer: userPage,
  }),
  createUser: route({
    method: "POST",
    path: "users",
    summary: "Create a user (better-auth's admin createUser), optionally emailing a sign-in link",
    body: newUser,
    answer: createdUser,
    status: 201,
    errors: ["CONFLICT", "FORBIDDEN"],
    audit: "user.create",
    requires: "userActions",
  }),
  exportUsers: route({
    method: "GET",
    path: "users/export",
    summary: "Stream the users the same filters list, oldest first",
    query: exportQuery,
    answer: fileAnswer(
      { "application/json": v.array(v.record(v.any())), "text/csv": v.string() },
      "A file of users (the export columns), streamed",
    ),
    audit: "user.export",
  }),
  importUsers: route({
    method: "POST",
    path: "users/import",
    summary: "Import up to 500 users in the export's shape",
    query: importQuery,
    body: rawBody(
      {
        "application/json": v.union(
          v.array(v.record(v.any())),
          v.object({ users: v.array(v.record(v.any())) }),
        ),
        "text/csv": v.string(),
      },
      "Users as JSON records or CSV with a header row",
    ),
    answer: adminImportReport,
    audit: "user.import",
    requires: "userActions",
  }),
  getUser: route({
    method: "GET",
    path: "users/:id",
    summary: "A user with their profile, accounts, sessions and passkeys",
    answer: userDetail,
  }),
  updateUser: route({
    method: "PATCH",
    path: "users/:id",
    summary: 'Change any of `capabilities.userFields` (`null` or `""` clears an optional one)',
    body: userChanges,
    answer: v.object({ user: adminUser, profile: v.record(v.any()) }),
    errors: ["CONFLICT"],
    audit: "user.update",
    requires: "userActions",
  }),
  deleteUser: route({
    method: "DELETE",
    path: "users/:id",
    summary: "Delete a user and every row that depends on them",
    answer: deleted,
    errors: ["CONFLICT"],
    audit: "user.delete",
    requires: "userActions",
  }),
  setRole: route({
    method: "POST",
    path: "users/:id/role",
    summary: "Set a user's role (one of `capabilities.roles`, or several)",
    body: roleChange,
    answer: withUser,
    errors: ["CONFLICT"],
    audit: "user.role",
    requires: "userActions",
  }),
  banUser: route({
    method: "POST",
    path: "users/:id/ban",
    summary: "Ban a user and revoke their sessions",
    body: banBody,
    answer: withUser,
    errors: ["CONFLICT"],
    audit: "user.ban",
    requires: "userActions",
  }),
  unbanUser: route({
    method: "POST",
    path: "users/:id/unban",
    summary: "Lift a user's ban",
    body: noFields,
    answer: withUser,
    errors: ["CONFLICT"],
    audit: "user.unban",
    requires: "userActions",
  }),
  setPassword: route({
    method: "POST",
    path: "users/:id/password",
    summary: "Set a user's password (creating their credential account if needed)",
    body: passwordBody,
    answer: v.object({ updated: v.literal(true), createdCredentialAccount: v.boolean() }),
    errors: ["CONFLICT"],
    audit: "user.password",
    requires: "userActions",
  }),
  sendSignInLink: route({
    method: "POST",
    path: "users/:id/sign-in-link",
    summary: "Email a user a sign-in link",
    body: signInLinkBody,
    answer: v.object({ signInLink: signInLinkOutcome }),
    errors: ["CONFLICT", "FORBIDDEN", "BAD_REQUEST"],
    audit: "user.sign-in-link",
  }),
  impersonate: route({
    method: "POST",
    path: "users/:id/impersonate",
    summary: "Start a bounded impersonation session (answers its token once)",
    body: impersonateBody,
    answer: impersonation,
    errors: ["CONFLICT", "FORBIDDEN"],
    audit: "user.impersonate",
    requires: "userActions",
  }),
  impersonationLink: route({
    method: "POST",
    path: "users/:id/impersonation-link",
    summary: "A one-time link that opens the app as the user",
    body: impersonationLinkBody,
    answer: impersonationLink,
    errors: ["CONFLICT", "FORBIDDEN"],
    audit: "user.impersonation-link",
    requires: "userActions",
  }),
  listSessions: route({
    method: "GET",
    path: "users/:id/sessions",
    summary: "A user's live sessions, newest first",
    answer: v.object({ sessions: v.array(adminSession) }),
  }),
  revokeSessions: route({
    method: "DELETE",
    path: "users/:id/sessions",
    summary: "Revoke every session of a user",
    answer: v.object({ revoked: v.number() }),
    audit: "session.revoke-all",
  }),
  revokeSession: route({
    method: "DELETE",
    path: "users/:id/sessions/:sessionId",
    summary: "Revoke one session (ends an impersonation early too)",
    answer: v.object({ revoked: v.literal(1) }),
    audit: "session.revoke",
  }),
  disableTwoFactor: route({
    method: "POST",
    path: "users/:id/two-factor/disable",
    summary: "Turn two-factor off and delete its secret and backup codes",
    body: noFields,
    answer: withUser,
    errors: ["CONFLICT"],
    audit: "two-factor.disable",
    requires: "twoFactor",
  }),
  listPasskeys: route({
    method: "GET",
    path: "users/:id/passkeys",
    summary: "A user's passkeys",
    answer: v.object({ passkeys: v.array(adminPasskey) }),
    requires: "passkeys",
  }),
  revokePasskey: route({
    method: "DELETE",
    path: "users/:id/passkeys/:passkeyId",
    summary: "Delete a passkey (not the user's last sign-in method)",
    answer: deleted,
    errors: ["CONFLICT"],
    audit: "passkey.delete",
    requires: "passkeys",
  }),
  listAccounts: route({
    method: "GET",
    path: "users/:id/accounts",
    summary: "A user's linked sign-in methods",
    answer: v.object({ accounts: v.array(adminAccount) }),
  }),
  listUserOrganizations: route({
    method: "GET",
    path: "users/:id/organizations",
    summary: "The organizations a user belongs to, with their role, newest membership first",
    answer: v.object({ memberships: v.array(adminUserMembership) }),
    requires: "organizations",
  }),
  unlinkAccount: route({
    method: "DELETE",
    path: "users/:id/accounts/:accountId",
    summary: "Unlink an account (not the user's last sign-in method)",
    answer: deleted,
    errors: ["CONFLICT"],
    audit: "account.unlink",
  }),
} as const;
