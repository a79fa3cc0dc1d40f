import { SvcError, v } from "@svc/server";
import { callAuthEndpoint, idOf } from "../auth-endpoint.ts";
import type { AdminEnvironment } from "../environment.ts";
import type { AdminAnswer, AdminCall } from "../handler.ts";
import { Issues } from "../issues.ts";
import { type Row, toMember } from "../records.ts";
import { findUserIdByEmail } from "../users/load.ts";
import { leaveActiveOrganization } from "./active-organization.ts";
import { loadMember, loadOrganization, selectWithin } from "./load.ts";
import { assertAnotherOwner, checkOrganizationRoles, holdsOwnerRole } from "./roles.ts";

const _ROLE_BODY = v.object({ role: v.union(v.string(), v.array(v.string())) });

/**
 * `POST organizations/:id/members` with `{ userId | email, role }`: adds an
 * existing user through better-auth's own `addMember` (server-only), so the
 * membership limit and `organizationHooks` apply. Roles are checked as
 * better-auth's invitations check them. Already a member is `409`; a user
 * who does not exist is `404` (invite them instead).
 *
 * @example
 * ```ts
 * POST /_svc/admin/auth/organizations/o1/members { "email": "ann@example.com", "role": "admin" } → 201 { member }
 * ```
 */
export async function addMember(call: AdminCall<"addMember">): Promise<AdminAnswer<"addMember">> {
  const { audit, ctx } = call;
  const { environment } = ctx;
  const organizationId = call.params.id;
  const body = call.body;
  const issues = new Issues("body");
  if ((body.userId === undefined) === (body.email === undefined)) {
    issues.add("userId", "give either userId or email of an existing user");
  }
  issues.throwIfAny();
  await loadOrganization(environment, organizationId);
  const role = await checkOrganizationRoles(environment, organizationId, body.role);
  const userId = body.userId ?? (await existingUserIdByEmail(environment, body.email ?? ""));
  audit.target = { targetType: "organization", targetId: organizationId, userId };
  const result = await callAuthEndpoint(environment, "addMember", {
    userId,
    organizationId,
    role: role.split(","),
  });
  const memberId = idOf(result, "addMember");
  audit.detail = `added ${userId} as ${role}`;
  const row = await selectWithin(environment, "member", organizationId, memberId).first<Row>();
  return { member: toMember(row ?? {}) };
}

/**
 * `POST organizations/:id/members/:memberId/role` with `{ role }`: one role
 * or several. Refuses to take the owner role from the last owner (`409`).
 *
 * @example
 * ```ts
 * POST /_svc/admin/auth/organizations/o1/members/m1/role { "role": "owner" } → { member }
 * ```
 */
export async function setMemberRole(
  call: AdminCall<"setMemberRole">,
): Promise<AdminAnswer<"setMemberRole">> {
  const { audit, ctx } = call;
  const { environment } = ctx;
  const { names, db } = environment;
  const { id: organizationId, memberId } = call.params;
  const body = call.body;
  const member = await loadMember(environment, organizationId, memberId);
  const role = await checkOrganizationRoles(environment, organizationId, body.role);
  audit.target = { targetType: "member", targetId: memberId, userId: String(member.user_id) };
  if (holdsOwnerRole(environment, member.role) && !holdsOwnerRole(environment, role)) {
    await assertAnotherOwner(environment, organizationId, memberId, "take the role from");
  }
  audit.detail = `role: ${String(member.role)} → ${role}`;
  const results = await db.batch<Row>([
    db
      .prepare(
        `UPDATE ${names.table("member")} SET ${names.column("member", "role")} = ? ` +
          `WHERE ${names.column("member", "id")} = ?`,
      )
      .bind(role, memberId),
    audit.okStatement(),
    selectWithin(environment, "member", organizationId, memberId),
  ]);
  return { member: toMember(results[2]?.results[0] ?? member) };
}

/**
 * `DELETE organizations/:id/members/:memberId`: removes the membership (the
 * user stays), their team memberships in this organization, and clears it as
 * the active organization of their sessions. Refuses the last owner (`409`).
 *
 * @example
 * ```ts
 * DELETE /_svc/admin/auth/organizations/o1/members/m1 → { deleted: true }
 * ```
 */
export async function removeMember(
  call: AdminCall<"removeMember">,
): Promise<AdminAnswer<"removeMember">> {
  const { audit, ctx } = call;
  const { environment } = ctx;
  const { names, db } = environment;
  const { id: organizationId, memberId } = call.params;
  const member = await loadMember(environment, organizationId, memberId);
  const userId = String(member.user_id);
  audit.target = { targetType: "member", targetId: memberId, userId };
  if (holdsOwnerRole(environment, member.role)) {
    await assertAnotherOwner(environment, organizationId, memberId, "remove");
  }
  const statements = [
    db
      .prepare(`DELETE FROM ${names.table("member")} WHERE ${names.column("member", "id")} = ?`)
      .bind(memberId),
  ];
  if (names.hasModel("teamMember") && names.hasModel("team")) {
    statements.push(
      db
        .prepare(
          `DELETE FROM ${names.table("teamMember")} WHERE ${names.column("teamMember", "userId")} = ? ` +
            `AND ${names.column("teamMember", "teamId")} IN (SELECT ${names.column("team", "id")} ` +
            `FROM ${names.table("team")} WHERE ${names.column("team", "organizationId")} = ?)`,
        )
        .bind(userId, organizationId),
    );
  }
  statements.push(...leaveActiveOrganization(environment, organizationId, userId));
  audit.detail = `removed ${String(member.user_email)} (${String(member.role)})`;
  await db.batch([...statements, audit.okStatement()]);
  return { deleted: true };
}

async function existingUserIdByEmail(
  environment: AdminEnvironment,
  email: string,
): Promise<string> {
  const id = await findUserIdByEmail(environment, email);
  if (id === null) {
    throw new SvcError(
      "NOT_FOUND",
      `No user with email ${JSON.stringify(email)}; invite them to the organization instead.`,
    );
  }
  return id;
}
