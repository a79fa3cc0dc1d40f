import { implement } from "@svc/server/routes";
import { createApiKey, listApiKeys, revokeApiKey } from "./api-keys.ts";
import { listAudit } from "./audit/list.ts";
import type { AuditScope } from "./audit/trail.ts";
import { ADMIN_AUTH_ROUTES } from "./contract/index.ts";
import type { AdminContext } from "./handler.ts";
import { authApiOpenApi, openApi } from "./openapi.ts";
import { getOrganization, listInvitations, listMembers } from "./organizations/detail.ts";
import { cancelInvitation, inviteMember, resendInvitation } from "./organizations/invitations.ts";
import { listOrganizations } from "./organizations/list.ts";
import {
  createOrganization,
  deleteOrganization,
  updateOrganization,
} from "./organizations/manage.ts";
import { addMember, removeMember, setMemberRole } from "./organizations/members.ts";
import { listUserOrganizations } from "./organizations/user-memberships.ts";
import { getOverview } from "./overview.ts";
import { banUser, unbanUser } from "./users/ban.ts";
import { createUser } from "./users/create.ts";
import { deleteUser } from "./users/delete.ts";
import { getUser, listAccounts, listPasskeys, listSessions } from "./users/detail.ts";
import { editUser } from "./users/edit.ts";
import { exportUsers } from "./users/export.ts";
import { impersonateUser } from "./users/impersonate.ts";
import { createImpersonationLink } from "./users/impersonation-link.ts";
import { importUsers } from "./users/import.ts";
import { listUsers } from "./users/list.ts";
import { listUserNames } from "./users/names.ts";
import { setPassword } from "./users/password.ts";
import { setRole } from "./users/role.ts";
import { revokeSession, revokeSessions } from "./users/sessions.ts";
import { sendUserSignInLink } from "./users/sign-in-link.ts";
import { revokePasskey, unlinkAccount } from "./users/sign-in-methods.ts";
import { disableTwoFactor } from "./users/two-factor.ts";

/**
 * Every route of `/_svc/admin/auth/` implemented: the handlers of the
 * declarations in `contract/` (a route without its handler, or a handler
 * that reads a parameter its path lacks, does not compile).
 *
 * @example
 * ```ts
 * serveRoutes(ADMIN_AUTH_IMPLEMENTATION, { audit, capability, mapError });
 * ```
 */
export const ADMIN_AUTH_IMPLEMENTATION = implement(ADMIN_AUTH_ROUTES)
  .context<AdminContext, AuditScope>()
  .handlers({
    capabilities: async ({ ctx }) => ctx.environment.capabilities,
    overview: getOverview,
    listUsers,
    createUser,
    exportUsers,
    importUsers,
    listUserNames,
    getUser,
    updateUser: editUser,
    deleteUser,
    setRole,
    banUser,
    unbanUser,
    setPassword,
    sendSignInLink: sendUserSignInLink,
    impersonate: impersonateUser,
    impersonationLink: createImpersonationLink,
    listSessions,
    revokeSessions,
    revokeSession,
    disableTwoFactor,
    listPasskeys,
    revokePasskey,
    listAccounts,
    listUserOrganizations,
    unlinkAccount,
    listOrganizations,
    createOrganization,
    getOrganization,
    updateOrganization,
    deleteOrganization,
    addMember,
    removeMember,
    setMemberRole,
    invite: inviteMember,
    resendInvitation,
    cancelInvitation,
    listMembers,
    listInvitations,
    listApiKeys,
    createApiKey,
    revokeApiKey,
    listAudit,
    openApi,
    authApiOpenApi,
  });
