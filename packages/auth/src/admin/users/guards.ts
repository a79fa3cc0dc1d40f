import { SvcError } from "@svc/server";
import type { AdminEnvironment } from "../environment.ts";
import { splitRoles } from "../plugin-settings.ts";
import type { Row } from "../records.ts";
import { roleMatch, rolePattern } from "../search.ts";

/**
 * True when a user counts as an admin for better-auth's admin plugin: a role
 * in `adminRoles`, or an id in `adminUserIds`.
 *
 * @example
 * ```ts
 * if (isAdmin(environment, row) && !options.allowAdmins) throw …;
 * ```
 */
export function isAdmin(environment: AdminEnvironment, row: Row): boolean {
  const { roles } = environment;
  if (roles === null) return false;
  if (roles.adminUserIds.includes(String(row.id))) return true;
  const userRoles = splitRoles(row.role);
  const effective = userRoles.length > 0 ? userRoles : [roles.defaultRole];
  return effective.some((role) => roles.adminRoles.includes(role));
}

/**
 * Refuses to leave the app without an admin user: deleting the last one, or
 * giving them a role that is not an admin role. (The admin token does not
 * need admin users, but the app's own admin screens do.)
 *
 * @throws {SvcError} `CONFLICT`
 * @example
 * ```ts
 * if (isAdmin(environment, row)) await assertAnotherAdmin(environment, id, "delete");
 * ```
 */
export async function assertAnotherAdmin(
  environment: AdminEnvironment,
  userId: string,
  doing: string,
): Promise<void> {
  const { names, db, roles } = environment;
  if (roles === null) return;
  const id = names.column("user", "id", "u");
  const role = names.column("user", "role", "u");
  const byRole = roles.adminRoles.map(() => roleMatch(role));
  const byId =
    roles.adminUserIds.length > 0
      ? [`${id} IN (${roles.adminUserIds.map(() => "?").join(", ")})`]
      : [];
  // A user without a role has the default role, which may itself be an admin role.
  const byDefault = roles.adminRoles.includes(roles.defaultRole)
    ? [`${role} IS NULL OR ${role} = ''`]
    : [];
  const others = await db
    .prepare(
      `SELECT COUNT(*) AS n FROM ${names.table("user")} u WHERE ${id} != ? AND ` +
        `(${[...byRole, ...byId, ...byDefault].join(" OR ")})`,
    )
    .bind(userId, ...roles.adminRoles.map(rolePattern), ...roles.adminUserIds)
    .first<{ n: number }>();
  if (Number(others?.n ?? 0) === 0) {
    throw new SvcError(
      "CONFLICT",
      `Cannot ${doing} the last admin user; make another user an admin first.`,
    );
  }
}

/**
 * Refuses to delete a user who is the last owner (`creatorRole`) of an
 * organization: the organization would be left with no one able to manage it.
 *
 * @throws {SvcError} `CONFLICT` naming the organizations (`data.organizations`)
 * @example
 * ```ts
 * await assertNotLastOwner(environment, id);
 * ```
 */
export async function assertNotLastOwner(
  environment: AdminEnvironment,
  userId: string,
): Promise<void> {
  const { names, db, ownerRole } = environment;
  if (ownerRole === null) return;
  const member = (field: string, alias: string) => names.column("member", field, alias);
  const { results } = await db
    .prepare(
      `SELECT ${names.column("organization", "id", "o")} AS id, ${names.column("organization", "name", "o")} AS name ` +
        `FROM ${names.table("member")} m JOIN ${names.table("organization")} o ` +
        `ON ${names.column("organization", "id", "o")} = ${member("organizationId", "m")} ` +
        `WHERE ${member("userId", "m")} = ? AND ${roleMatch(member("role", "m"))} AND NOT EXISTS (` +
        `SELECT 1 FROM ${names.table("member")} x WHERE ${member("organizationId", "x")} = ${member("organizationId", "m")} ` +
        `AND ${member("userId", "x")} != ? AND ${roleMatch(member("role", "x"))}) LIMIT 20`,
    )
    .bind(userId, rolePattern(ownerRole), userId, rolePattern(ownerRole))
    .all<{ id: string; name: string }>();
  if (results.length === 0) return;
  const list = results.map((org) => JSON.stringify(org.name)).join(", ");
  throw new SvcError(
    "CONFLICT",
    `This user is the last ${ownerRole} of ${list}, so deleting them is refused.`,
    { data: { organizations: results.map((org) => org.id) } },
  );
}

/**
 * Refuses to remove a user's last way to sign in: unlinking their only linked
 * account, or revoking their only passkey, when nothing else is left.
 * (Email-code plugins such as magic links are not counted: whether they can
 * sign a user in depends on app settings this cannot see.)
 *
 * @throws {SvcError} `CONFLICT`
 * @example
 * ```ts
 * await assertAnotherSignInMethod(environment, userId);
 * ```
 */
export async function assertAnotherSignInMethod(
  environment: AdminEnvironment,
  userId: string,
): Promise<void> {
  const { names, db } = environment;
  const count = (model: string) =>
    `(SELECT COUNT(*) FROM ${names.table(model)} WHERE ${names.column(model, "userId")} = ?)`;
  const models = ["account", ...(names.hasModel("passkey") ? ["passkey"] : [])];
  const row = await db
    .prepare(`SELECT ${models.map(count).join(" + ")} AS n`)
    .bind(...models.map(() => userId))
    .first<{ n: number }>();
  if (Number(row?.n ?? 0) <= 1) {
    throw new SvcError(
      "CONFLICT",
      "Cannot remove the user's last sign-in method (linked account or passkey); add another one first.",
    );
  }
}
