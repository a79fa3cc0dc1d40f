import type { AdminAnswer, AdminCall } from "../handler.ts";
import { removalStatements } from "./cascade.ts";
import { assertAnotherAdmin, assertNotLastOwner, isAdmin } from "./guards.ts";
import { loadUserRow } from "./load.ts";

/**
 * `DELETE users/:id`: removes the user and every row that depends on them
 * (sessions, accounts, two-factor, passkeys, memberships, ... — see
 * `removalStatements`) in one D1 batch with the audit record. Refuses the
 * last admin and the last owner of an organization (`409`).
 *
 * @example
 * ```ts
 * DELETE /_svc/admin/auth/users/u1 → { deleted: true }
 * ```
 */
export async function deleteUser(
  call: AdminCall<"deleteUser">,
): Promise<AdminAnswer<"deleteUser">> {
  const { audit, ctx } = call;
  const { environment } = ctx;
  const id = call.params.id;
  const row = await loadUserRow(environment, id);
  if (isAdmin(environment, row)) await assertAnotherAdmin(environment, id, "delete");
  await assertNotLastOwner(environment, id);
  const statements = await removalStatements(environment, "user", id);
  // The user is gone afterwards; the trail keeps who it was.
  audit.detail = `deleted ${String(row.email)}`;
  await environment.db.batch([...statements, audit.okStatement()]);
  return { deleted: true };
}
