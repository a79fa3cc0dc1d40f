import { SvcError } from "@svc/server";
import { json } from "../http.ts";
import type { ActionCall, ParamsOf } from "../router.ts";
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
export function removeSignInMethod<Param extends string>(
  model: "account" | "passkey",
  param: Param,
) {
  const noun = model === "account" ? "linked account" : "passkey";
  return async (
    call: ActionCall<ParamsOf<"users/:id"> & { readonly [Key in Param]: string }>,
  ): Promise<Response> => {
    const { environment, audit } = call;
    const { names, db } = environment;
    const id = call.params.id;
    const rowId = call.params[param];
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
    return json({ deleted: true });
  };
}
