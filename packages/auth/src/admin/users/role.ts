import type { AdminAnswer, AdminCall } from "../handler.ts";
import { Issues } from "../issues.ts";
import { splitRoles } from "../plugin-settings.ts";
import type { Row } from "../records.ts";
import { assertAnotherAdmin, isAdmin } from "./guards.ts";
import { loadUserRow, selectUser, userOf } from "./load.ts";

/**
 * `POST users/:id/role` with `{ role }`: one role, or several (an array or
 * better-auth's comma-separated form), each one the admin plugin knows.
 * Refuses to demote the last admin (`409`).
 *
 * @example
 * ```ts
 * POST /_svc/admin/auth/users/u1/role { "role": "admin" } → { user }
 * ```
 */
export async function setRole(call: AdminCall<"setRole">): Promise<AdminAnswer<"setRole">> {
  const { audit, ctx } = call;
  const { environment } = ctx;
  const { names, db } = environment;
  const id = call.params.id;
  const body = call.body;
  const roles = splitRoles(body.role);
  const known = environment.roles?.assignable ?? [];
  const issues = new Issues("body");
  if (roles.length === 0) issues.add("role", "must name a role");
  for (const role of roles) {
    if (!known.includes(role)) {
      issues.add("role", `unknown role ${JSON.stringify(role)} (known: ${known.join(", ")})`);
    }
  }
  issues.throwIfAny();
  const next = [...new Set(roles)].join(",");
  const row = await loadUserRow(environment, id);
  if (isAdmin(environment, row) && !isAdmin(environment, { ...row, role: next })) {
    await assertAnotherAdmin(environment, id, "remove the admin role from");
  }
  audit.detail = `role: ${String(row.role ?? environment.roles?.defaultRole)} → ${next}`;
  const results = await db.batch<Row>([
    db
      .prepare(
        `UPDATE ${names.table("user")} SET ${names.column("user", "role")} = ?, ` +
          `${names.column("user", "updatedAt")} = ? WHERE ${names.column("user", "id")} = ?`,
      )
      .bind(next, new Date().toISOString(), id),
    audit.okStatement(),
    selectUser(environment, id),
  ]);
  return { user: userOf(results[2], id) };
}
