import { listAudit } from "./audit/list.ts";
import type { AuditTarget } from "./audit/trail.ts";
import { json } from "./http.ts";
import { getOrganization, listInvitations, listMembers } from "./organizations/detail.ts";
import { cancelInvitation, inviteMember, resendInvitation } from "./organizations/invitations.ts";
import { listOrganizations } from "./organizations/list.ts";
import {
  createOrganization,
  deleteOrganization,
  updateOrganization,
} from "./organizations/manage.ts";
import { addMember, removeMember, setMemberRole } from "./organizations/members.ts";
import { getOverview } from "./overview.ts";
import { type AdminCall, type AdminRoute, type ParamsOf, route } from "./router.ts";
import { banUser, unbanUser } from "./users/ban.ts";
import { createUser } from "./users/create.ts";
import { deleteUser } from "./users/delete.ts";
import { getUser, listRelated } from "./users/detail.ts";
import { editUser } from "./users/edit.ts";
import { exportUsers } from "./users/export.ts";
import { impersonateUser } from "./users/impersonate.ts";
import { createImpersonationLink } from "./users/impersonation-link.ts";
import { importUsers } from "./users/import.ts";
import { listUsers } from "./users/list.ts";
import { setPassword } from "./users/password.ts";
import { setRole } from "./users/role.ts";
import { revokeSession, revokeSessions } from "./users/sessions.ts";
import { sendUserSignInLink } from "./users/sign-in-link.ts";
import { removeSignInMethod } from "./users/sign-in-methods.ts";
import { disableTwoFactor } from "./users/two-factor.ts";

const user = (params: ParamsOf<"users/:id">): AuditTarget => ({
  targetType: "user",
  targetId: params.id,
  userId: params.id,
});
const organization = (params: ParamsOf<"organizations/:id">): AuditTarget => ({
  targetType: "organization",
  targetId: params.id,
  userId: null,
});
const member = (params: ParamsOf<"organizations/:id/members/:memberId">): AuditTarget => ({
  targetType: "member",
  targetId: params.memberId,
  userId: null,
});
const invitation = (
  params: ParamsOf<"organizations/:id/invitations/:invitationId">,
): AuditTarget => ({ targetType: "invitation", targetId: params.invitationId, userId: null });
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
  route({ method: "GET", pattern: "overview", query: true, handle: getOverview }),
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
    method: "PATCH",
    pattern: "users/:id",
    requires: "userActions",
    action: "user.update",
    target: user,
    handle: editUser,
  }),
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
    pattern: "users/:id/sign-in-link",
    action: "user.sign-in-link",
    target: user,
    handle: sendUserSignInLink,
  }),
  route({
    method: "POST",
    pattern: "users/:id/impersonate",
    requires: "userActions",
    action: "user.impersonate",
    target: user,
    handle: impersonateUser,
  }),
  route({
    method: "POST",
    pattern: "users/:id/impersonation-link",
    requires: "userActions",
    action: "user.impersonation-link",
    target: user,
    handle: createImpersonationLink,
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
    method: "POST",
    pattern: "organizations",
    requires: "organizations",
    action: "organization.create",
    target: () => ({ targetType: "organization", targetId: "", userId: null }),
    handle: createOrganization,
  }),
  route({
    method: "GET",
    pattern: "organizations/:id",
    requires: "organizations",
    handle: getOrganization,
  }),
  route({
    method: "PATCH",
    pattern: "organizations/:id",
    requires: "organizations",
    action: "organization.update",
    target: organization,
    handle: updateOrganization,
  }),
  route({
    method: "DELETE",
    pattern: "organizations/:id",
    requires: "organizations",
    action: "organization.delete",
    target: organization,
    handle: deleteOrganization,
  }),
  route({
    method: "POST",
    pattern: "organizations/:id/members",
    requires: "organizations",
    action: "member.add",
    target: organization,
    handle: addMember,
  }),
  route({
    method: "DELETE",
    pattern: "organizations/:id/members/:memberId",
    requires: "organizations",
    action: "member.remove",
    target: member,
    handle: removeMember,
  }),
  route({
    method: "POST",
    pattern: "organizations/:id/members/:memberId/role",
    requires: "organizations",
    action: "member.role",
    target: member,
    handle: setMemberRole,
  }),
  route({
    method: "POST",
    pattern: "organizations/:id/invitations",
    requires: "organizations",
    action: "invitation.create",
    target: organization,
    handle: inviteMember,
  }),
  route({
    method: "POST",
    pattern: "organizations/:id/invitations/:invitationId/resend",
    requires: "organizations",
    action: "invitation.resend",
    target: invitation,
    handle: resendInvitation,
  }),
  route({
    method: "DELETE",
    pattern: "organizations/:id/invitations/:invitationId",
    requires: "organizations",
    action: "invitation.cancel",
    target: invitation,
    handle: cancelInvitation,
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
