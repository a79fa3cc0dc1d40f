import { SvcError } from "@svc/server";
import type { AdminAnswer, AdminCall } from "../handler.ts";
import type { Row } from "../records.ts";
import { loadUserRow, selectUser, userOf } from "./load.ts";

/**
 * `POST users/:id/two-factor/disable`: turns two-factor off for the user and
 * deletes their TOTP secret and backup codes, in one D1 batch with the audit
 * record; they sign in with their first factor alone afterwards. `409` when
 * two-factor is not on.
 *
 * @example
 * ```ts
 * POST /_svc/admin/auth/users/u1/two-factor/disable → { user }
 * ```
 */
export async function disableTwoFactor(
  call: AdminCall<"disableTwoFactor">,
): Promise<AdminAnswer<"disableTwoFactor">> {
  const { audit, ctx } = call;
  const { environment } = ctx;
  const { names, db } = environment;
  const id = call.params.id;
  const row = await loadUserRow(environment, id);
  if (!(row.twoFactorEnabled === 1 || row.twoFactorEnabled === true)) {
    throw new SvcError("CONFLICT", "Two-factor authentication is not enabled for this user.");
  }
  const results = await db.batch<Row>([
    db
      .prepare(
        `UPDATE ${names.table("user")} SET ${names.column("user", "twoFactorEnabled")} = 0, ` +
          `${names.column("user", "updatedAt")} = ? WHERE ${names.column("user", "id")} = ?`,
      )
      .bind(new Date().toISOString(), id),
    db
      .prepare(
        `DELETE FROM ${names.table("twoFactor")} WHERE ${names.column("twoFactor", "userId")} = ?`,
      )
      .bind(id),
    audit.okStatement(),
    selectUser(environment, id),
  ]);
  return { user: userOf(results[3], id) };
}
