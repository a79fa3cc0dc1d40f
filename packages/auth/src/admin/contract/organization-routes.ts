/** The routes of `/_svc/admin/auth/` about organizations, declared once (see `routes.ts`). */
import { route, v } from "@svc/server/routes/contract";
import { nextCursor, organizationPage } from "./answers.ts";
import {
  newInvitation,
  newMember,
  newOrganization,
  organizationChanges,
  roleChange,
} from "./bodies.ts";
import { organizationQuery, pageQuery } from "./queries.ts";
import { adminInvitation, adminMember, adminOrganization } from "./shapes.ts";

const withOrganization = v.object({ organization: adminOrganization });
const withMember = v.object({ member: adminMember });
const sentInvitation = v.object({ invitation: adminInvitation, emailed: v.boolean() });

/**
 * The organization routes. All but the list need the organization plugin;
 * the list answers `enabled: false` without it.
 *
 * @example
 * ```ts
 * ORGANIZATION_ROUTES.addMember.path; // "organizations/:id/members"
 * ```
 */
export const ORGANIZATION_ROUTES = {
  listOrganizations: route({
    method: "GET",
    path: "organizations",
    summary: "One page of organizations, newest first (or the plugin-off state)",
    query: organizationQuery,
    answer: organizationPage,
  }),
  createOrganization: route({
    method: "POST",
    path: "organizations",
    summary: "Create an organization with `ownerId` as its first owner",
    body: newOrganization,
    answer: withOrganization,
    status: 201,
    errors: ["CONFLICT", "FORBIDDEN"],
    audit: "organization.create",
    requires: "organizations",
  }),
  getOrganization: route({
    method: "GET",
    path: "organizations/:id",
    summary: "An organization",
    answer: withOrganization,
    requires: "organizations",
  }),
  updateOrganization: route({
    method: "PATCH",
    path: "organizations/:id",
    summary: "Change name, slug, logo or metadata (`null` clears logo / metadata)",
    body: organizationChanges,
    answer: withOrganization,
    errors: ["CONFLICT"],
    audit: "organization.update",
    requires: "organizations",
  }),
  deleteOrganization: route({
    method: "DELETE",
    path: "organizations/:id",
    summary: "Delete an organization with its members, invitations and teams",
    answer: v.object({ deleted: v.literal(true), members: v.number() }),
    audit: "organization.delete",
    requires: "organizations",
  }),
  addMember: route({
    method: "POST",
    path: "organizations/:id/members",
    summary: "Add an existing user (by `userId` or `email`) as a member",
    body: newMember,
    answer: withMember,
    status: 201,
    errors: ["CONFLICT", "FORBIDDEN"],
    audit: "member.add",
    requires: "organizations",
  }),
  removeMember: route({
    method: "DELETE",
    path: "organizations/:id/members/:memberId",
    summary: "Remove a member (not the last owner)",
    answer: v.object({ deleted: v.literal(true) }),
    errors: ["CONFLICT"],
    audit: "member.remove",
    requires: "organizations",
  }),
  setMemberRole: route({
    method: "POST",
    path: "organizations/:id/members/:memberId/role",
    summary: "Set a member's role",
    body: roleChange,
    answer: withMember,
    errors: ["CONFLICT"],
    audit: "member.role",
    requires: "organizations",
  }),
  invite: route({
    method: "POST",
    path: "organizations/:id/invitations",
    summary: "Invite someone by email (the app's sendInvitationEmail sends it)",
    body: newInvitation,
    answer: sentInvitation,
    status: 201,
    errors: ["CONFLICT", "UNAVAILABLE"],
    audit: "invitation.create",
    requires: "organizations",
  }),
  resendInvitation: route({
    method: "POST",
    path: "organizations/:id/invitations/:invitationId/resend",
    summary: "Renew a pending invitation's expiry and send it again",
    answer: sentInvitation,
    errors: ["CONFLICT", "UNAVAILABLE"],
    audit: "invitation.resend",
    requires: "organizations",
  }),
  cancelInvitation: route({
    method: "DELETE",
    path: "organizations/:id/invitations/:invitationId",
    summary: "Cancel a pending invitation",
    answer: v.object({ invitation: adminInvitation }),
    errors: ["CONFLICT"],
    audit: "invitation.cancel",
    requires: "organizations",
  }),
  listMembers: route({
    method: "GET",
    path: "organizations/:id/members",
    summary: "An organization's members, oldest first",
    query: pageQuery,
    answer: v.object({ members: v.array(adminMember), nextCursor }),
    requires: "organizations",
  }),
  listInvitations: route({
    method: "GET",
    path: "organizations/:id/invitations",
    summary: "An organization's invitations, newest first",
    query: pageQuery,
    answer: v.object({ invitations: v.array(adminInvitation), nextCursor }),
    requires: "organizations",
  }),
} as const;
