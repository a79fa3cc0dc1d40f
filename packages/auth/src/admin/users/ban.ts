import { SvcError } from "@svc/server";
import type { AdminEnvironment } from "../environment.ts";
import type { AdminAnswer, AdminCall } from "../handler.ts";
import { Issues } from "../issues.ts";
import { isBanInForce, type Row } from "../records.ts";
import { loadUserRow, selectUser, userOf } from "./load.ts";

const MAX_REASON = 1000;

/**
 * `POST users/:id/ban` with `{ reason?, expiresAt? }` (ISO-8601, in the
 * future; absent = permanent, which also clears an old expiry). In one D1
 * batch: the ban, the revocation of every session of the user, and the audit
 * record; better-auth's admin plugin then refuses their sign-ins. A user
 * already banned is `409`.
 *
 * @example
 * ```ts
 * POST /_svc/admin/auth/users/u1/ban { "reason": "spam", "expiresAt": "2027-01-01T00:00:00Z" } → { user }
 * ```
 */
export async function banUser(call: AdminCall<"banUser">): Promise<AdminAnswer<"banUser">> {
  const { audit, ctx } = call;
  const { environment } = ctx;
  const id = call.params.id;
  const body = call.body;
  const issues = new Issues("body");
  const expiresAt = body.expiresAt === undefined ? null : Date.parse(body.expiresAt);
  if (expiresAt !== null && Number.isNaN(expiresAt))
    issues.add("expiresAt", "must be an ISO-8601 date-time");
  else if (expiresAt !== null && expiresAt <= Date.now())
    issues.add("expiresAt", "must be in the future");
  if (body.reason !== undefined && body.reason.length > MAX_REASON) {
    issues.add("reason", `must be at most ${MAX_REASON} characters`);
  }
  issues.throwIfAny();
  const row = await loadUserRow(environment, id);
  if (isBanInForce(row, Date.now())) {
    throw new SvcError(
      "CONFLICT",
      "The user is already banned; unban them first to change the ban.",
    );
  }
  const expires = expiresAt === null ? null : new Date(expiresAt).toISOString();
  audit.reason = body.reason ?? null;
  audit.detail = expires === null ? "permanent ban" : `banned until ${expires}`;
  const { names, db } = environment;
  const results = await db.batch<Row>([
    updateBan(environment, id, { banned: 1, banReason: body.reason ?? null, banExpires: expires }),
    db
      .prepare(
        `DELETE FROM ${names.table("session")} WHERE ${names.column("session", "userId")} = ?`,
      )
      .bind(id),
    audit.okStatement(),
    selectUser(environment, id),
  ]);
  return { user: userOf(results[3], id) };
}

/**
 * `POST users/:id/unban`: lifts a ban in force (`409` when there is none),
 * clearing its reason and expiry.
 *
 * @example
 * ```ts
 * POST /_svc/admin/auth/users/u1/unban → { user }
 * ```
 */
export async function unbanUser(call: AdminCall<"unbanUser">): Promise<AdminAnswer<"unbanUser">> {
  const { audit, ctx } = call;
  const { environment } = ctx;
  const id = call.params.id;
  const row = await loadUserRow(environment, id);
  if (!isBanInForce(row, Date.now())) throw new SvcError("CONFLICT", "The user is not banned.");
  const results = await environment.db.batch<Row>([
    updateBan(environment, id, { banned: 0, banReason: null, banExpires: null }),
    audit.okStatement(),
    selectUser(environment, id),
  ]);
  return { user: userOf(results[2], id) };
}

function updateBan(
  environment: AdminEnvironment,
  id: string,
  ban: { banned: 0 | 1; banReason: string | null; banExpires: string | null },
): D1PreparedStatement {
  const { names, db } = environment;
  const column = (field: string) => names.column("user", field);
  return db
    .prepare(
      `UPDATE ${names.table("user")} SET ${column("banned")} = ?, ${column("banReason")} = ?, ` +
        `${column("banExpires")} = ?, ${column("updatedAt")} = ? WHERE ${column("id")} = ?`,
    )
    .bind(ban.banned, ban.banReason, ban.banExpires, new Date().toISOString(), id);
}
