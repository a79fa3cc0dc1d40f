import { SvcError } from "@svc/server";
import { isEmailAddress } from "../email-address.ts";
import type { AdminEnvironment } from "../environment.ts";
import type { AdminAnswer, AdminCall } from "../handler.ts";
import { Issues } from "../issues.ts";
import { type Row, toInvitation } from "../records.ts";
import { roleMatch, rolePattern } from "../search.ts";
import { loadInvitation, loadOrganization, selectWithin } from "./load.ts";
import { checkOrganizationRoles } from "./roles.ts";

/**
 * `POST organizations/:id/invitations` with `{ email, role, inviterId? }`:
 * records a pending invitation as better-auth's organization plugin does
 * (its `invitationExpiresIn`, roles checked as it checks them) and sends it
 * through the app's `sendInvitationEmail`. The inviter shown to the
 * recipient is `inviterId` (a member) or else the organization's first owner;
 * the audit trail records the operator. Refuses an email that is already a
 * member or already has a pending invitation (`409`: resend that one).
 * `emailed: false` says no `sendInvitationEmail` is configured.
 *
 * @example
 * ```ts
 * POST /_svc/admin/auth/organizations/o1/invitations { "email": "bo@example.com", "role": "member" }
 * → 201 { invitation, emailed: true }
 * ```
 */
export async function inviteMember(call: AdminCall<"invite">): Promise<AdminAnswer<"invite">> {
  const { audit, ctx } = call;
  const { environment } = ctx;
  const { names, db } = environment;
  const organizationId = call.params.id;
  const body = call.body;
  const email = body.email.trim().toLowerCase();
  const issues = new Issues("body");
  if (!isEmailAddress(email)) issues.add("email", "must be an email address");
  issues.throwIfAny();
  const organization = await loadOrganization(environment, organizationId);
  const role = await checkOrganizationRoles(environment, organizationId, body.role);
  await assertNotInvitedOrMember(environment, organizationId, email);
  const inviter = await inviterOf(environment, organizationId, body.inviterId);
  const id = String(environment.auth.generateId({ model: "invitation" }) || crypto.randomUUID());
  const now = new Date();
  const invitation = {
    id,
    organizationId,
    email,
    role,
    status: "pending",
    expiresAt: expiryFrom(environment, now),
    createdAt: now.toISOString(),
    inviterId: String(inviter.userId),
  };
  const fields = Object.keys(invitation);
  audit.target = { targetType: "invitation", targetId: id, userId: null };
  audit.detail = `invited ${email} as ${role} to ${JSON.stringify(String(organization.slug))}`;
  await db
    .prepare(
      `INSERT INTO ${names.table("invitation")} (${fields.map((field) => names.column("invitation", field)).join(", ")}) ` +
        `VALUES (${fields.map(() => "?").join(", ")})`,
    )
    .bind(...Object.values(invitation))
    .run();
  const emailed = await sendOrCancel(environment, { organization, inviter, invitation });
  const row = await selectWithin(environment, "invitation", organizationId, id).first<Row>();
  return { invitation: toInvitation(row ?? invitation), emailed };
}

/**
 * `POST organizations/:id/invitations/:invitationId/resend`: renews a
 * pending invitation's expiry (expired ones too) and sends it again.
 *
 * @example
 * ```ts
 * POST /_svc/admin/auth/organizations/o1/invitations/i1/resend → { invitation, emailed: true }
 * ```
 */
export async function resendInvitation(
  call: AdminCall<"resendInvitation">,
): Promise<AdminAnswer<"resendInvitation">> {
  const { audit, ctx } = call;
  const { environment } = ctx;
  const { names, db } = environment;
  const { id: organizationId, invitationId } = call.params;
  const row = await loadPending(environment, organizationId, invitationId, "resend");
  const organization = await loadOrganization(environment, organizationId);
  const inviter = await inviterOf(environment, organizationId, row.inviter_id ?? undefined, true);
  const expiresAt = expiryFrom(environment, new Date());
  audit.detail = `resent to ${String(row.email)}`;
  await db
    .prepare(
      `UPDATE ${names.table("invitation")} SET ${names.column("invitation", "expiresAt")} = ? ` +
        `WHERE ${names.column("invitation", "id")} = ?`,
    )
    .bind(expiresAt, invitationId)
    .run();
  const invitation = { ...row, organizationId, expiresAt, inviterId: inviter.userId };
  const emailed = await sendOrCancel(environment, { organization, inviter, invitation }, false);
  const fresh = await selectWithin(
    environment,
    "invitation",
    organizationId,
    invitationId,
  ).first<Row>();
  return { invitation: toInvitation(fresh ?? invitation), emailed };
}

/**
 * `DELETE organizations/:id/invitations/:invitationId`: cancels a pending
 * invitation (status `canceled`, as better-auth's own cancel does; the link
 * in the email stops working). An answered invitation is `409`.
 *
 * @example
 * ```ts
 * DELETE /_svc/admin/auth/organizations/o1/invitations/i1 → { invitation }
 * ```
 */
export async function cancelInvitation(
  call: AdminCall<"cancelInvitation">,
): Promise<AdminAnswer<"cancelInvitation">> {
  const { audit, ctx } = call;
  const { environment } = ctx;
  const { db } = environment;
  const { id: organizationId, invitationId } = call.params;
  const row = await loadPending(environment, organizationId, invitationId, "cancel");
  audit.detail = `canceled the invitation of ${String(row.email)}`;
  const results = await db.batch<Row>([
    cancelStatement(environment, invitationId),
    audit.okStatement(),
    selectWithin(environment, "invitation", organizationId, invitationId),
  ]);
  return { invitation: toInvitation(results[2]?.results[0] ?? row) };
}

/** Sets an invitation's status to `canceled`, as better-auth's own cancel does. */
function cancelStatement(environment: AdminEnvironment, invitationId: string): D1PreparedStatement {
  const { names, db } = environment;
  return db
    .prepare(
      `UPDATE ${names.table("invitation")} SET ${names.column("invitation", "status")} = 'canceled' ` +
        `WHERE ${names.column("invitation", "id")} = ?`,
    )
    .bind(invitationId);
}

async function loadPending(
  environment: AdminEnvironment,
  organizationId: string,
  invitationId: string,
  doing: string,
): Promise<Row> {
  const row = await loadInvitation(environment, organizationId, invitationId);
  if (row.status !== "pending") {
    throw new SvcError(
      "CONFLICT",
      `Cannot ${doing} an invitation that is ${String(row.status)}; only pending invitations can be.`,
    );
  }
  return row;
}

async function assertNotInvitedOrMember(
  environment: AdminEnvironment,
  organizationId: string,
  email: string,
): Promise<void> {
  const { names, db } = environment;
  const member = (field: string) => names.column("member", field, "m");
  const invitation = (field: string) => names.column("invitation", field);
  const [members, pending] = await db.batch<{ n: number }>([
    db
      .prepare(
        `SELECT COUNT(*) AS n FROM ${names.table("member")} m JOIN ${names.table("user")} u ` +
          `ON ${names.column("user", "id", "u")} = ${member("userId")} ` +
          `WHERE ${member("organizationId")} = ? AND ${names.column("user", "email", "u")} = ?`,
      )
      .bind(organizationId, email),
    db
      .prepare(
        `SELECT COUNT(*) AS n FROM ${names.table("invitation")} WHERE ${invitation("organizationId")} = ? ` +
          `AND ${invitation("email")} = ? AND ${invitation("status")} = 'pending'`,
      )
      .bind(organizationId, email),
  ]);
  if (Number(members?.results[0]?.n ?? 0) > 0) {
    throw new SvcError("CONFLICT", `${email} is already a member of this organization.`);
  }
  if (Number(pending?.results[0]?.n ?? 0) > 0) {
    throw new SvcError(
      "CONFLICT",
      `${email} already has a pending invitation to this organization; resend it instead.`,
    );
  }
}

interface Inviter {
  userId: string;
  member: Row;
  user: Row;
}

/**
 * The member the invitation comes from: the one named (who must be a member),
 * or the organization's first owner, or its first member. On resend, an
 * inviter who left is replaced the same way.
 */
async function inviterOf(
  environment: AdminEnvironment,
  organizationId: string,
  userId: unknown,
  fallBack = false,
): Promise<Inviter> {
  const { names, db, ownerRole } = environment;
  const member = (field: string) => names.column("member", field, "m");
  const pick = (where: string, ...binds: unknown[]) =>
    db
      .prepare(
        `SELECT ${names.select("member", ["id", "role", "createdAt", "userId"], "m")}, ` +
          `${names.select("user", ["id", "email", "name", "image"], "u", "user_")} FROM ${names.table("member")} m ` +
          `JOIN ${names.table("user")} u ON ${names.column("user", "id", "u")} = ${member("userId")} ` +
          `WHERE ${member("organizationId")} = ? AND ${where} ORDER BY ${member("createdAt")}, ${member("id")} LIMIT 1`,
      )
      .bind(organizationId, ...binds)
      .first<Row>();
  let row: Row | null = null;
  if (typeof userId === "string") {
    row = await pick(`${member("userId")} = ?`, userId);
    if (row === null && !fallBack) {
      throw new SvcError("VALIDATION_FAILED", "The inviter must be a member of the organization.", {
        issues: [{ path: "body.inviterId", message: "is not a member of this organization" }],
      });
    }
  }
  if (ownerRole !== null) row ??= await pick(roleMatch(member("role")), rolePattern(ownerRole));
  row ??= await pick("1 = 1");
  if (row === null) {
    throw new SvcError(
      "CONFLICT",
      "The organization has no members to send an invitation from; add a member first.",
    );
  }
  const user: Row = {};
  const memberRow: Row = {};
  for (const [key, value] of Object.entries(row)) {
    if (key.startsWith("user_")) user[key.slice(5)] = value;
    else memberRow[key] = value;
  }
  return { userId: String(memberRow.userId), member: memberRow, user };
}

function expiryFrom(environment: AdminEnvironment, now: Date): string {
  const seconds = environment.organizations?.invitationExpiresInSeconds ?? 48 * 3600;
  return new Date(now.getTime() + seconds * 1000).toISOString();
}

/**
 * Sends the invitation through the app's `sendInvitationEmail`, answering
 * whether one is configured. If sending fails, a new invitation is canceled
 * (no one can accept a link that never arrived) and the operator is told.
 */
async function sendOrCancel(
  environment: AdminEnvironment,
  data: { organization: Row; inviter: Inviter; invitation: Row },
  cancelOnFailure = true,
): Promise<boolean> {
  const send = environment.organizations?.sendInvitationEmail;
  if (!send) return false;
  const { organization, inviter, invitation } = data;
  try {
    await send({
      id: String(invitation.id),
      role: String(invitation.role),
      email: String(invitation.email),
      organization,
      inviter: { ...inviter.member, user: inviter.user },
      invitation,
    });
    return true;
  } catch (error) {
    console.error("svc/auth admin: sendInvitationEmail failed", error);
    if (cancelOnFailure) await cancelStatement(environment, String(invitation.id)).run();
    throw new SvcError(
      "UNAVAILABLE",
      `The invitation email could not be sent (sendInvitationEmail failed)${cancelOnFailure ? "; the invitation was canceled" : ""}.`,
    );
  }
}
