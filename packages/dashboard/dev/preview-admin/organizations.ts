/**
 * DEV PREVIEW ONLY: the organization routes of the fake admin API, over the
 * in-memory data (routing, body checks and input types come from the
 * declarations).
 */

import { adminInvitation, adminOrganization } from "@svc/auth/admin-contract";
import { SvcError } from "@svc/server";
import { fakeOf } from "@svc/server/routes";
import type { Invitation, Member } from "../../ui/api/types.ts";
import { type PreviewContext, type PreviewHandlers, page, userOf } from "./users.ts";

const ROLES = ["owner", "admin", "member"];
const now = () => new Date().toISOString();
const newId = (prefix: string) => `${prefix}_${crypto.randomUUID().slice(0, 8)}`;

function roleOf(value: string | string[]): string {
  const role = Array.isArray(value) ? value.join(",") : value;
  if (!ROLES.includes(role)) {
    throw new SvcError("VALIDATION_FAILED", `Unknown role ${JSON.stringify(role)}.`, {
      issues: [
        { path: "body.role", message: `unknown role "${role}" (known: ${ROLES.join(", ")})` },
      ],
    });
  }
  return role;
}

/** The organization with this id, with its members and invitations, or `404`. */
function organizationOf(ctx: PreviewContext, id: string) {
  const organization = ctx.data.organizations.find((org) => org.id === id);
  if (organization === undefined) throw new SvcError("NOT_FOUND", "No organization with this id.");
  const members = ctx.data.members.get(id) ?? [];
  const invitations = ctx.data.invitations.get(id) ?? [];
  return { organization, members, invitations };
}

function memberOf(ctx: PreviewContext, id: string, memberId: string) {
  const found = organizationOf(ctx, id);
  const member = found.members.find((candidate) => candidate.id === memberId);
  if (member === undefined) throw new SvcError("NOT_FOUND", "No such member.");
  const lastOwner =
    member.role === "owner" && found.members.filter((m) => m.role === "owner").length === 1;
  return { ...found, member, lastOwner };
}

function invitationOf(ctx: PreviewContext, id: string, invitationId: string): Invitation {
  const invitation = organizationOf(ctx, id).invitations.find(
    (candidate) => candidate.id === invitationId,
  );
  if (invitation === undefined) throw new SvcError("NOT_FOUND", "No such invitation.");
  return invitation;
}

const asMember = (user: { id: string; email: string; name: string }, role: string): Member => ({
  id: newId("mem"),
  role,
  createdAt: now(),
  user: { id: user.id, email: user.email, name: user.name },
});

/** The organization routes of the preview. */
export const organizationHandlers = {
  listOrganizations: async ({ ctx, query }) => {
    const search = (query.search ?? "").toLowerCase();
    const matching = ctx.data.organizations.filter((org) =>
      `${org.name} ${org.slug}`.toLowerCase().includes(search),
    );
    const { items, nextCursor } = page(matching, query);
    return { enabled: true as const, organizations: items, total: matching.length, nextCursor };
  },
  createOrganization: async ({ ctx, body, audit }) => {
    const owner = userOf(ctx.data, body.ownerId);
    const organization = fakeOf(adminOrganization, {
      ...body,
      id: newId("org"),
      createdAt: now(),
      memberCount: 1,
    });
    ctx.data.organizations.unshift(organization);
    ctx.data.members.set(organization.id, [asMember(owner, "owner")]);
    ctx.data.invitations.set(organization.id, []);
    audit.targetId = organization.id;
    return { organization };
  },
  getOrganization: async ({ ctx, params }) => ({
    organization: organizationOf(ctx, params.id).organization,
  }),
  updateOrganization: async ({ ctx, params, body }) => {
    const { organization } = organizationOf(ctx, params.id);
    Object.assign(organization, body);
    return { organization };
  },
  deleteOrganization: async ({ ctx, params }) => {
    const { organization, members } = organizationOf(ctx, params.id);
    ctx.data.organizations.splice(ctx.data.organizations.indexOf(organization), 1);
    return { deleted: true as const, members: members.length };
  },
  listUserOrganizations: async ({ ctx, params }) => {
    userOf(ctx.data, params.id);
    const memberships = ctx.data.organizations.flatMap((organization) =>
      (ctx.data.members.get(organization.id) ?? [])
        .filter((member) => member.user.id === params.id)
        .map((member) => ({
          id: member.id,
          role: member.role,
          createdAt: member.createdAt,
          organization: { id: organization.id, name: organization.name, slug: organization.slug },
        })),
    );
    return { memberships };
  },
  listMembers: async ({ ctx, params, query }) => {
    const { items, nextCursor } = page(organizationOf(ctx, params.id).members, query);
    return { members: items, nextCursor };
  },
  addMember: async ({ ctx, params, body }) => {
    const { organization, members } = organizationOf(ctx, params.id);
    const user = ctx.data.users.find(
      (candidate) => candidate.email === body.email || candidate.id === body.userId,
    );
    if (user === undefined) throw new SvcError("NOT_FOUND", "No user with this email.");
    const member = asMember(user, roleOf(body.role));
    members.push(member);
    organization.memberCount = members.length;
    return { member };
  },
  setMemberRole: async ({ ctx, params, body }) => {
    const { member, lastOwner } = memberOf(ctx, params.id, params.memberId);
    const next = roleOf(body.role);
    if (lastOwner && next !== "owner")
      throw new SvcError("CONFLICT", "Cannot take the role from the organization's last owner.");
    member.role = next;
    return { member };
  },
  removeMember: async ({ ctx, params }) => {
    const { organization, members, member, lastOwner } = memberOf(ctx, params.id, params.memberId);
    if (lastOwner) throw new SvcError("CONFLICT", "Cannot remove the organization's last owner.");
    members.splice(members.indexOf(member), 1);
    organization.memberCount = members.length;
    return { deleted: true as const };
  },
  listInvitations: async ({ ctx, params, query }) => {
    const { items, nextCursor } = page(organizationOf(ctx, params.id).invitations, query);
    return { invitations: items, nextCursor };
  },
  invite: async ({ ctx, params, body }) => {
    const { members, invitations } = organizationOf(ctx, params.id);
    const inviter = members[0]?.user;
    const invitation = fakeOf(adminInvitation, {
      id: newId("inv"),
      email: body.email,
      role: roleOf(body.role),
      status: "pending",
      inviter: inviter ? { id: inviter.id, email: inviter.email } : null,
    });
    invitations.unshift(invitation);
    return { invitation, emailed: false };
  },
  resendInvitation: async ({ ctx, params }) => {
    const invitation = invitationOf(ctx, params.id, params.invitationId);
    invitation.expiresAt = new Date(Date.now() + 48 * 3600_000).toISOString();
    return { invitation, emailed: false };
  },
  cancelInvitation: async ({ ctx, params }) => {
    const invitation = invitationOf(ctx, params.id, params.invitationId);
    invitation.status = "canceled";
    return { invitation };
  },
} satisfies Partial<PreviewHandlers>;
