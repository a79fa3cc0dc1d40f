import { SvcError } from "@svc/server";
import type { AdminAnswer, AdminCall } from "../handler.ts";
import { OPERATOR_PREFIX } from "../records.ts";
import { loadUserRow } from "./load.ts";

/**
 * `DELETE users/:id/sessions`: revokes every session of the user (one D1
 * batch with the audit record). `revoked` counts the live ones; expired rows
 * are removed too, uncounted.
 *
 * @example
 * ```ts
 * DELETE /_svc/admin/auth/users/u1/sessions → { revoked: 3 }
 * ```
 */
export async function revokeSessions(
  call: AdminCall<"revokeSessions">,
): Promise<AdminAnswer<"revokeSessions">> {
  const { audit, ctx } = call;
  const { environment } = ctx;
  const { names, db } = environment;
  const id = call.params.id;
  await loadUserRow(environment, id);
  const table = names.table("session");
  const owner = `${names.column("session", "userId")} = ?`;
  const [live] = await db.batch([
    db
      .prepare(
        // Rows returned, not `meta.changes`: that one also counts the revocation log's trigger rows.
        `DELETE FROM ${table} WHERE ${owner} AND ${names.column("session", "expiresAt")} > ? RETURNING 1 AS revoked`,
      )
      .bind(id, new Date().toISOString()),
    db.prepare(`DELETE FROM ${table} WHERE ${owner}`).bind(id),
    audit.okStatement(),
  ]);
  return { revoked: live?.results.length ?? 0 };
}

/**
 * `DELETE users/:id/sessions/:sessionId`: revokes one session of the user;
 * this is also how an impersonation is ended early. `404` when the user has
 * no such session.
 *
 * @example
 * ```ts
 * DELETE /_svc/admin/auth/users/u1/sessions/s1 → { revoked: 1 }
 * ```
 */
export async function revokeSession(
  call: AdminCall<"revokeSession">,
): Promise<AdminAnswer<"revokeSession">> {
  const { audit, ctx } = call;
  const { environment } = ctx;
  const { names, db } = environment;
  const id = call.params.id;
  const sessionId = call.params.sessionId;
  await loadUserRow(environment, id);
  const where = `${names.column("session", "id")} = ? AND ${names.column("session", "userId")} = ?`;
  const by = names.column("session", "impersonatedBy");
  const found = await db
    .prepare(`SELECT ${by} AS impersonatedBy FROM ${names.table("session")} WHERE ${where}`)
    .bind(sessionId, id)
    .first<{ impersonatedBy: string | null }>();
  if (found === null) {
    throw new SvcError(
      "NOT_FOUND",
      `The user has no session with id ${JSON.stringify(sessionId)}.`,
    );
  }
  if (found.impersonatedBy) {
    audit.detail = `impersonation by ${found.impersonatedBy.replace(OPERATOR_PREFIX, "")} ended`;
  }
  await db.batch([
    db.prepare(`DELETE FROM ${names.table("session")} WHERE ${where}`).bind(sessionId, id),
    audit.okStatement(),
  ]);
  return { revoked: 1 };
}
