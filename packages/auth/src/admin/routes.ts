import { listAudit } from "./audit/list.ts";
import type { AuditTarget } from "./audit/trail.ts";
import { json } from "./http.ts";
import { getOrganization, listInvitations, listMembers } from "./organizations/detail.ts";
import { listOrganizations } from "./organizations/list.ts";
import { type AdminCall, type AdminRoute, type ParamsOf, route } from "./router.ts";
import { banUser, unbanUser } from "./users/ban.ts";
import { createUser } from "./users/create.ts";
import { deleteUser } from "./users/delete.ts";
import { getUser, listRelated } from "./users/detail.ts";
import { exportUsers } from "./users/export.ts";
import { impersonateUser } from "./users/impersonate.ts";
import { importUsers } from "./users/import.ts";
import { listUsers } from "./users/list.ts";
import { setPassword } from "./users/password.ts";
import { setRole } from "./users/role.ts";
import { revokeSession, revokeSessions } from "./users/sessions.ts";
import { removeSignInMethod } from "./users/sign-in-methods.ts";
import { disableTwoFactor } from "./users/two-factor.ts";

const user = (params: ParamsOf<"users/:id">): AuditTarget => ({
  targetType: "user",
  targetId: params.id,
  userId: params.id,
});
const owned =
  <Name extends string>(targetType: AuditTarget["targetType"], param: Name) =>
  (params: ParamsOf<"users/:id"> & { readonly [Key in Name]: string }): AuditTarget => ({
    targetType,
    targetId: params[param],
    userId: params.id,
  });

/**
 * Every route of `/_svc/admin/auth/`, the contract of `docs/admin-api.md`.
 * Routes that `require` a capability exist only while it is on; routes with an `action`
 * are recorded in the audit trail.
 *
 * @example
 * ```ts
 * await dispatch(ROUTES, { environment, request, url, path, operator });
 * ```
 * @see ../../../../docs/admin-api.md "Routes"
 */
export const ROUTES: readonly AdminRoute[] = [
  route({
    method: "GET",
    pattern: "capabilities",
    handle: async (call: AdminCall) => json(call.environment.capabilities),
  }),
  route({ method: "GET", pattern: "users", query: true, handle: listUsers }),
  route({
    method: "POST",
    pattern: "users",
    requires: "userActions",
    action: "user.create",
    target: () => ({ targetType: "user", targetId: "", userId: null }),
    handle: createUser,
  }),
  route({
    method: "GET",
    pattern: "users/export",
    query: true,
    action: "user.export",
    target: () => ({ targetType: "user", targetId: "", userId: null }),
    handle: exportUsers,
  }),
  route({
    method: "POST",
    pattern: "users/import",
    query: true,
    requires: "userActions",
    action: "user.import",
    target: () => ({ targetType: "user", targetId: "", userId: null }),
    handle: importUsers,
  }),
  route({ method: "GET", pattern: "users/:id", handle: getUser }),
  route({
    method: "DELETE",
    pattern: "users/:id",
    requires: "userActions",
    action: "user.delete",
    target: user,
    handle: deleteUser,
  }),
  route({
    method: "POST",
    pattern: "users/:id/role",
    requires: "userActions",
    action: "user.role",
    target: user,
    handle: setRole,
  }),
  route({
    method: "POST",
    pattern: "users/:id/ban",
    requires: "userActions",
    action: "user.ban",
    target: user,
    handle: banUser,
  }),
  route({
    method: "POST",
    pattern: "users/:id/unban",
    requires: "userActions",
    action: "user.unban",
    target: user,
    handle: unbanUser,
  }),
  route({
    method: "POST",
    pattern: "users/:id/password",
    requires: "userActions",
    action: "user.password",
    target: user,
    handle: setPassword,
  }),
  route({
    method: "POST",
    pattern: "users/:id/impersonate",
    requires: "userActions",
    action: "user.impersonate",
    target: user,
    handle: impersonateUser,
  }),
  route({ method: "GET", pattern: "users/:id/sessions", handle: listRelated("sessions") }),
  route({
    method: "DELETE",
    pattern: "users/:id/sessions",
    action: "session.revoke-all",
    target: user,
    handle: revokeSessions,
  }),
  route({
    method: "DELETE",
    pattern: "users/:id/sessions/:sessionId",
    action: "session.revoke",
    target: owned("session", "sessionId"),
    handle: revokeSession,
  }),
  route({
    method: "POST",
    pattern: "users/:id/two-factor/disable",
    requires: "twoFactor",
    action: "two-factor.disable",
    target: user,
    handle: disableTwoFactor,
  }),
  route({
    method: "GET",
    pattern: "users/:id/passkeys",
    requires: "passkeys",
    handle: listRelated("passkeys"),
  }),
  route({
    method: "DELETE",
    pattern: "users/:id/passkeys/:passkeyId",
    requires: "passkeys",
    action: "passkey.delete",
    target: owned("passkey", "passkeyId"),
    handle: removeSignInMethod("passkey", "passkeyId"),
  }),
  route({ method: "GET", pattern: "users/:id/accounts", handle: listRelated("accounts") }),
  route({
    method: "DELETE",
    pattern: "users/:id/accounts/:accountId",
    action: "account.unlink",
    target: owned("account", "accountId"),
    handle: removeSignInMethod("account", "accountId"),
  }),
  route({ method: "GET", pattern: "organizations", query: true, handle: listOrganizations }),
  route({
    method: "GET",
    pattern: "organizations/:id",
    requires: "organizations",
    handle: getOrganization,
  }),
  route({
    method: "GET",
    pattern: "organizations/:id/members",
    requires: "organizations",
    query: true,
    handle: listMembers,
  }),
  route({
    method: "GET",
    pattern: "organizations/:id/invitations",
    requires: "organizations",
    query: true,
    handle: listInvitations,
  }),
  route({ method: "GET", pattern: "audit", query: true, handle: listAudit }),
];
