/**
 * DEV PREVIEW ONLY: the organization-managing routes of the fake admin API
 * (create, edit, delete; members; invitations), just enough for the
 * dashboard's screens to be tried and photographed. No invitation email is
 * configured here, so invitations answer `emailed: false`.
 */
import { SvcError } from "@svc/server";
import type { Invitation, Member, Organization } from "../../ui/api/types.ts";
import type { PreviewData } from "./seed.ts";

const ROLES = ["owner", "admin", "member"];

function roleOf(value: unknown): string {
  const role = String(value ?? "");
  if (!ROLES.includes(role)) {
    throw new SvcError("VALIDATION_FAILED", `Unknown role ${JSON.stringify(role)}.`, {
      issues: [
        { path: "body.role", message: `unknown role "${role}" (known: ${ROLES.join(", ")})` },
      ],
    });
  }
  return role;
}

const newId = (prefix: string) => `${prefix}_${crypto.randomUUID().slice(0, 8)}`;

/** Answers a changing organization route, or `undefined` when the route is not one of them. */
export function manageOrganization(
  data: PreviewData,
  method: string,
  parts: (string | undefined)[],
  input: Record<string, unknown>,
): { body: unknown; status?: number } | undefined {
  const [, id, sub, subId, action] = parts;
  if (id === undefined && method === "POST") {
    const owner = data.users.find((user) => user.id === input.ownerId);
    if (owner === undefined) throw new SvcError("NOT_FOUND", "No user with this id.");
    const organization: Organization = {
      id: newId("org"),
      name: String(input.name),
      slug: String(input.slug),
      logo: typeof input.logo === "string" ? input.logo : null,
      metadata: (input.metadata as Record<string, unknown> | undefined) ?? null,
      createdAt: new Date().toISOString(),
      memberCount: 1,
    };
    data.organizations.unshift(organization);
    const member: Member = {
      id: newId("mem"),
      role: "owner",
      createdAt: organization.createdAt,
      user: { id: owner.id, email: owner.email, name: owner.name },
    };
    data.members.set(organization.id, [member]);
    data.invitations.set(organization.id, []);
    return { body: { organization }, status: 201 };
  }
  const organization = data.organizations.find((org) => org.id === id);
  if (organization === undefined || id === undefined) return undefined;
  const members = data.members.get(id) ?? [];
  const invitations = data.invitations.get(id) ?? [];
  if (sub === undefined && method === "PATCH") {
    Object.assign(organization, input);
    return { body: { organization } };
  }
  if (sub === undefined && method === "DELETE") {
    data.organizations.splice(data.organizations.indexOf(organization), 1);
    return { body: { deleted: true, members: members.length } };
  }
  if (sub === "members" && subId === undefined && method === "POST") {
    const user = data.users.find((candidate) => candidate.email === input.email);
    if (user === undefined) throw new SvcError("NOT_FOUND", "No user with this email.");
    const member: Member = {
      id: newId("mem"),
      role: roleOf(input.role),
      createdAt: new Date().toISOString(),
      user: { id: user.id, email: user.email, name: user.name },
    };
    members.push(member);
    organization.memberCount = members.length;
    return { body: { member }, status: 201 };
  }
  const member = members.find((candidate) => candidate.id === subId);
  if (sub === "members" && member !== undefined) {
    const lastOwner =
      member.role === "owner" && members.filter((other) => other.role === "owner").length === 1;
    if (action === "role") {
      const role = roleOf(input.role);
      if (lastOwner && role !== "owner") {
        throw new SvcError("CONFLICT", "Cannot take the role from the organization's last owner.");
      }
      member.role = role;
      return { body: { member } };
    }
    if (lastOwner) throw new SvcError("CONFLICT", "Cannot remove the organization's last owner.");
    members.splice(members.indexOf(member), 1);
    organization.memberCount = members.length;
    return { body: { deleted: true } };
  }
  if (sub === "invitations" && subId === undefined && method === "POST") {
    const invitation: Invitation = {
      id: newId("inv"),
      email: String(input.email),
      role: roleOf(input.role),
      status: "pending",
      expiresAt: new Date(Date.now() + 48 * 3600_000).toISOString(),
      createdAt: new Date().toISOString(),
      inviter: members[0] ? { id: members[0].user.id, email: members[0].user.email } : null,
    };
    invitations.unshift(invitation);
    return { body: { invitation, emailed: false }, status: 201 };
  }
  const invitation = invitations.find((candidate) => candidate.id === subId);
  if (sub === "invitations" && invitation !== undefined) {
    if (action === "resend") {
      invitation.expiresAt = new Date(Date.now() + 48 * 3600_000).toISOString();
      return { body: { invitation, emailed: false } };
    }
    invitation.status = "canceled";
    return { body: { invitation } };
  }
  return undefined;
}
