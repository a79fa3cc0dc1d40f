import type { AdminEnvironment } from "../environment.ts";

/**
 * The statements that stop sessions pointing at an organization as their
 * active one (all sessions, or only one user's), for the batch that deletes
 * the organization or removes the member: better-auth would otherwise keep
 * answering an organization the user no longer belongs to. None when the
 * session table has no `activeOrganizationId`.
 *
 * @example
 * ```ts
 * await db.batch([...removal, ...leaveActiveOrganization(environment, organizationId, userId)]);
 * ```
 */
export function leaveActiveOrganization(
  environment: AdminEnvironment,
  organizationId: string,
  userId?: string,
): D1PreparedStatement[] {
  const { names, db } = environment;
  if (!names.hasField("session", "activeOrganizationId")) return [];
  const active = names.column("session", "activeOrganizationId");
  const ofUser = userId === undefined ? "" : ` AND ${names.column("session", "userId")} = ?`;
  return [
    db
      .prepare(`UPDATE ${names.table("session")} SET ${active} = NULL WHERE ${active} = ?${ofUser}`)
      .bind(organizationId, ...(userId === undefined ? [] : [userId])),
  ];
}
