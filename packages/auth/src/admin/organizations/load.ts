import { SvcError } from "@svc/server";
import type { AdminEnvironment } from "../environment.ts";
import type { Row } from "../records.ts";
import type { SqlNames } from "../sql-names.ts";
import { organizationColumns } from "./list.ts";

/**
 * The statement reading one organization with its member count (alias `o`),
 * for a D1 batch.
 *
 * @example
 * ```ts
 * const [organization] = await db.batch([selectOrganization(environment, id), …]);
 * ```
 */
export function selectOrganization(environment: AdminEnvironment, id: string): D1PreparedStatement {
  const { names, db } = environment;
  return db
    .prepare(
      `SELECT ${organizationColumns(environment)} FROM ${names.table("organization")} o ` +
        `WHERE ${names.column("organization", "id", "o")} = ?`,
    )
    .bind(id);
}

/**
 * One organization's row, or `404`.
 *
 * @throws {SvcError} `NOT_FOUND`
 * @example
 * ```ts
 * const organization = await loadOrganization(environment, call.params.id);
 * ```
 */
export async function loadOrganization(environment: AdminEnvironment, id: string): Promise<Row> {
  const row = await selectOrganization(environment, id).first<Row>();
  if (row === null) throw organizationNotFound(id);
  return row;
}

/**
 * The `404` of an organization id that does not exist.
 *
 * @example
 * ```ts
 * if (row === null) throw organizationNotFound(id);
 * ```
 */
export function organizationNotFound(id: string): SvcError {
  return new SvcError("NOT_FOUND", `No organization with id ${JSON.stringify(id)}.`);
}

/**
 * Select list and join of a member with its user's id, email and name
 * (member alias `m`, user alias `u`), the shape `toMember` reads.
 *
 * @example
 * ```ts
 * const { select, join } = memberQuery(names);
 * `SELECT ${select} FROM "member" m ${join} WHERE …`;
 * ```
 */
export function memberQuery(names: SqlNames): { select: string; join: string } {
  const member = (field: string) => names.column("member", field, "m");
  const user = (field: string) => names.column("user", field, "u");
  return {
    select:
      `${member("id")} AS "id", ${member("role")} AS "role", ${member("createdAt")} AS "createdAt", ` +
      `${user("id")} AS "user_id", ${user("email")} AS "user_email", ${user("name")} AS "user_name"`,
    join: `JOIN ${names.table("user")} u ON ${user("id")} = ${member("userId")}`,
  };
}

/**
 * Select list and join of an invitation with its inviter's id and email
 * (invitation alias `m`, user alias `u`), the shape `toInvitation` reads.
 *
 * @example
 * ```ts
 * const { select, join } = invitationQuery(names);
 * `SELECT ${select} FROM "invitation" m ${join} WHERE …`;
 * ```
 */
export function invitationQuery(names: SqlNames): { select: string; join: string } {
  const user = (field: string) => names.column("user", field, "u");
  return {
    select:
      `${names.select("invitation", ["id", "email", "role", "status", "expiresAt", "createdAt"], "m")}, ` +
      `${user("id")} AS "inviter_id", ${user("email")} AS "inviter_email"`,
    join: `LEFT JOIN ${names.table("user")} u ON ${user("id")} = ${names.column("invitation", "inviterId", "m")}`,
  };
}

/**
 * One member of one organization, with its user, or `404` (a member id of
 * another organization is not found either).
 *
 * @throws {SvcError} `NOT_FOUND`
 * @example
 * ```ts
 * const member = await loadMember(environment, organizationId, memberId);
 * ```
 */
export async function loadMember(
  environment: AdminEnvironment,
  organizationId: string,
  memberId: string,
): Promise<Row> {
  const row = await selectWithin(environment, "member", organizationId, memberId).first<Row>();
  if (row === null) {
    throw new SvcError(
      "NOT_FOUND",
      `No member with id ${JSON.stringify(memberId)} in organization ${JSON.stringify(organizationId)}.`,
    );
  }
  return row;
}

/**
 * One invitation of one organization, with its inviter, or `404`.
 *
 * @throws {SvcError} `NOT_FOUND`
 * @example
 * ```ts
 * const invitation = await loadInvitation(environment, organizationId, invitationId);
 * ```
 */
export async function loadInvitation(
  environment: AdminEnvironment,
  organizationId: string,
  invitationId: string,
): Promise<Row> {
  const row = await selectWithin(
    environment,
    "invitation",
    organizationId,
    invitationId,
  ).first<Row>();
  if (row === null) {
    throw new SvcError(
      "NOT_FOUND",
      `No invitation with id ${JSON.stringify(invitationId)} in organization ${JSON.stringify(organizationId)}.`,
    );
  }
  return row;
}

/**
 * The statement reading one member or invitation of an organization in the
 * shape `toMember` / `toInvitation` read, for a D1 batch.
 *
 * @example
 * ```ts
 * const results = await db.batch([update, selectWithin(environment, "member", orgId, memberId)]);
 * ```
 */
export function selectWithin(
  environment: AdminEnvironment,
  model: "member" | "invitation",
  organizationId: string,
  id: string,
): D1PreparedStatement {
  const { names, db } = environment;
  const { select, join } = model === "member" ? memberQuery(names) : invitationQuery(names);
  return db
    .prepare(
      `SELECT ${select} FROM ${names.table(model)} m ${join} ` +
        `WHERE ${names.column(model, "id", "m")} = ? AND ${names.column(model, "organizationId", "m")} = ?`,
    )
    .bind(id, organizationId);
}
