import type { AdminAnswer, AdminCall } from "../handler.ts";
import { type Row, toUserMembership } from "../records.ts";
import { selectUser, userOf } from "../users/load.ts";

/** Most memberships one answer lists, newest first. */
const MAX_MEMBERSHIPS = 500;

/**
 * `GET users/:id/organizations`: the organizations a user belongs to (at most
 * 500, newest membership first), each with the membership's id and role and
 * only the organization's id, name and slug; `404` for an unknown user. The
 * user's drawer lists them, each linking to its organization.
 *
 * @example
 * ```ts
 * GET /_svc/admin/auth/users/u1/organizations → { memberships: [{ id, role, createdAt, organization }] }
 * ```
 */
export async function listUserOrganizations(
  call: AdminCall<"listUserOrganizations">,
): Promise<AdminAnswer<"listUserOrganizations">> {
  const { names, db } = call.ctx.environment;
  const id = call.params.id;
  const member = (field: string) => names.column("member", field, "m");
  const organization = (field: string) => names.column("organization", field, "o");
  const [user, rows] = await db.batch<Row>([
    selectUser(call.ctx.environment, id),
    db
      .prepare(
        `SELECT ${names.select("member", ["id", "role", "createdAt"], "m")}, ` +
          `${names.select("organization", ["id", "name", "slug"], "o", "organization_")} ` +
          `FROM ${names.table("member")} m ` +
          `JOIN ${names.table("organization")} o ON ${organization("id")} = ${member("organizationId")} ` +
          `WHERE ${member("userId")} = ? ORDER BY ${member("createdAt")} DESC, ${member("id")} DESC ` +
          `LIMIT ${MAX_MEMBERSHIPS}`,
      )
      .bind(id),
  ]);
  userOf(user, id);
  return { memberships: (rows?.results ?? []).map(toUserMembership) };
}
