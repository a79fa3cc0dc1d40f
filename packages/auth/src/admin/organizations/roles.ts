import { SvcError } from "@svc/server";
import type { AdminEnvironment } from "../environment.ts";
import { Issues } from "../issues.ts";
import { splitRoles } from "../plugin-settings.ts";
import { roleMatch, rolePattern } from "../search.ts";

/**
 * Checks organization roles as better-auth's own invitation endpoint does:
 * each must be `owner`, `admin`, `member`, a key of the plugin's `roles`, or
 * (with dynamic access control) a role this organization defined. Answers
 * them in better-auth's stored form (comma-separated).
 *
 * @throws {SvcError} `VALIDATION_FAILED` naming the unknown roles and the known ones
 * @example
 * ```ts
 * const role = await checkOrganizationRoles(environment, organizationId, body.role);
 * ```
 */
export async function checkOrganizationRoles(
  environment: AdminEnvironment,
  organizationId: string,
  value: unknown,
): Promise<string> {
  const settings = environment.organizations;
  const roles = [...new Set(splitRoles(value))];
  const known = settings?.roles ?? [];
  let unknown = roles.filter((role) => !known.includes(role));
  if (
    unknown.length > 0 &&
    settings?.dynamicRoles &&
    environment.names.hasModel("organizationRole")
  ) {
    const { names, db } = environment;
    const { results } = await db
      .prepare(
        `SELECT ${names.column("organizationRole", "role")} AS role FROM ${names.table("organizationRole")} ` +
          `WHERE ${names.column("organizationRole", "organizationId")} = ?`,
      )
      .bind(organizationId)
      .all<{ role: string }>();
    const defined = new Set(results.map((row) => row.role));
    unknown = unknown.filter((role) => !defined.has(role));
  }
  const issues = new Issues("body");
  if (roles.length === 0) issues.add("role", "must name a role");
  for (const role of unknown) {
    issues.add("role", `unknown role ${JSON.stringify(role)} (known: ${known.join(", ")})`);
  }
  issues.throwIfAny();
  return roles.join(",");
}

/**
 * Refuses to take the owner role (`creatorRole`) from an organization's last
 * owner, by removing the member or changing their role: nobody would be left
 * able to manage the organization through better-auth.
 *
 * @throws {SvcError} `CONFLICT`
 * @example
 * ```ts
 * if (holdsOwnerRole(environment, member.role) && !holdsOwnerRole(environment, next))
 *   await assertAnotherOwner(environment, organizationId, memberId, "remove");
 * ```
 */
export async function assertAnotherOwner(
  environment: AdminEnvironment,
  organizationId: string,
  memberId: string,
  doing: string,
): Promise<void> {
  const { names, db, ownerRole } = environment;
  if (ownerRole === null) return;
  const others = await db
    .prepare(
      `SELECT COUNT(*) AS n FROM ${names.table("member")} m ` +
        `WHERE ${names.column("member", "organizationId", "m")} = ? AND ${names.column("member", "id", "m")} != ? ` +
        `AND ${roleMatch(names.column("member", "role", "m"))}`,
    )
    .bind(organizationId, memberId, rolePattern(ownerRole))
    .first<{ n: number }>();
  if (Number(others?.n ?? 0) === 0) {
    throw new SvcError(
      "CONFLICT",
      `Cannot ${doing} the organization's last ${ownerRole}; make another member ${ownerRole} first.`,
    );
  }
}

/**
 * Whether a stored member role (`"owner"`, `"admin,owner"`) includes the owner role.
 *
 * @example
 * ```ts
 * holdsOwnerRole(environment, "admin,owner"); // true
 * ```
 */
export function holdsOwnerRole(environment: AdminEnvironment, role: unknown): boolean {
  return environment.ownerRole !== null && splitRoles(role).includes(environment.ownerRole);
}
