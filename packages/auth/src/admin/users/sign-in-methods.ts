import { SvcError } from "@svc/server";
import type { AdminAnswer, AdminCall } from "../handler.ts";
import { assertAnotherSignInMethod } from "./guards.ts";
import { loadUserRow } from "./load.ts";

/**
 * `DELETE users/:id/accounts/:accountId` (unlink a linked account) and
 * `DELETE users/:id/passkeys/:passkeyId` (revoke a passkey): removes the row
 * in one D1 batch with the audit record. `404` when the user has no such
 * row; `409` when it is their last way to sign in.
 *
 * @example
 * ```ts
 * DELETE /_svc/admin/auth/users/u1/accounts/a1 → { deleted: true }
 * ```
 */
export async function removeSignInMethod(
  call: AdminCall<"revokePasskey" | "unlinkAccount">,
  model: "account" | "passkey",
  rowId: string,
): Promise<AdminAnswer<"revokePasskey" | "unlinkAccount">> {
  const noun = model === "account" ? "linked account" : "passkey";
  const { audit, ctx } = call;
  const { environment } = ctx;
  const { names, db } = environment;
  const id = call.params.id;
  await loadUserRow(environment, id);
  const where = `${names.column(model, "id")} = ? AND ${names.column(model, "userId")} = ?`;
  const found = await db
    .prepare(
      `SELECT ${model === "account" ? names.column(model, "providerId") : names.column(model, "name")} AS label ` +
        `FROM ${names.table(model)} WHERE ${where}`,
    )
    .bind(rowId, id)
    .first<{ label: string | null }>();
  if (found === null) {
    throw new SvcError("NOT_FOUND", `The user has no ${noun} with id ${JSON.stringify(rowId)}.`);
  }
  await assertAnotherSignInMethod(environment, id);
  audit.detail = `${noun}${found.label === null ? "" : ` ${found.label}`}`;
  await db.batch([
    db.prepare(`DELETE FROM ${names.table(model)} WHERE ${where}`).bind(rowId, id),
    audit.okStatement(),
  ]);
  return { deleted: true };
}

/** `DELETE users/:id/passkeys/:passkeyId`. */
export function revokePasskey(call: AdminCall<"revokePasskey">) {
  return removeSignInMethod(call, "passkey", call.params.passkeyId);
}

/** `DELETE users/:id/accounts/:accountId`. */
export function unlinkAccount(call: AdminCall<"unlinkAccount">) {
  return removeSignInMethod(call, "account", call.params.accountId);
}
