import type { AuditEntry, AuditTargetType } from "../contract/index.ts";
import { DEFAULT_LIMIT } from "../contract/index.ts";
import type { AdminEnvironment } from "../environment.ts";
import type { AdminAnswer, AdminCall } from "../handler.ts";
import { Keyset } from "../keyset.ts";
import type { Row } from "../records.ts";
import { AUDIT_MODEL } from "../schema-plugin.ts";
import { findUserIdByEmail } from "../users/load.ts";

const FIELDS = [
  "id",
  "at",
  "operator",
  "action",
  "targetType",
  "targetId",
  "userId",
  "outcome",
  "detail",
  "reason",
] as const;

/** The user concerned's fields an entry carries: allow-listed, only what names them. */
const USER_FIELDS = ["id", "name", "email"] as const;

/**
 * `GET audit`: the trail, newest first, in keyset pages over svc's audit
 * indexes. `target` matches the entry's target or the user it concerns (so a
 * user's page shows their sessions, accounts and passkeys too); an email
 * matches like the id of the user who has it, and failed creations recorded
 * under that email; `action` is
 * one of the recorded actions; `operator` the token name. There is no route
 * that changes or deletes an entry. Each entry names the user it concerns
 * (`user`: name and email, joined by primary key) while that user exists.
 *
 * @example
 * ```ts
 * GET /_svc/admin/auth/audit?target=u1&action=user.ban → { entries, nextCursor }
 * ```
 */
export async function listAudit(call: AdminCall<"listAudit">): Promise<AdminAnswer<"listAudit">> {
  const { environment } = call.ctx;
  const { names, db } = environment;
  const query = call.query;
  const column = (field: string) => names.column(AUDIT_MODEL, field, "a");
  const keyset = new Keyset(
    { kind: "audit:at:desc", column: column("at"), id: column("id"), direction: "desc" },
    query.cursor,
  );
  const conditions: string[] = [];
  const binds: unknown[] = [];
  if (query.target !== undefined) {
    const ids = await targetIds(environment, query.target);
    const marks = ids.map(() => "?").join(", ");
    conditions.push(`(${column("targetId")} IN (${marks}) OR ${column("userId")} IN (${marks}))`);
    binds.push(...ids, ...ids);
  }
  if (query.action !== undefined) {
    conditions.push(`${column("action")} = ?`);
    binds.push(query.action);
  }
  if (query.operator !== undefined) {
    conditions.push(`${column("operator")} = ?`);
    binds.push(query.operator);
  }
  conditions.push(...keyset.where());
  const limit = query.limit ?? DEFAULT_LIMIT;
  const { results } = await db
    .prepare(
      `SELECT ${names.select(AUDIT_MODEL, FIELDS, "a")}, ${names.select("user", USER_FIELDS, "u", "user_")}, ` +
        `${keyset.sortSelect()} FROM ${names.table(AUDIT_MODEL)} a` +
        // The user concerned, by primary key, so a line says whom it is about by name and email.
        ` LEFT JOIN ${names.table("user")} u ON ${names.column("user", "id", "u")} = ${column("userId")}` +
        `${conditions.length === 0 ? "" : ` WHERE ${conditions.join(" AND ")}`} ORDER BY ${keyset.orderBy()} LIMIT ?`,
    )
    .bind(...binds, ...keyset.binds(), limit + 1)
    .all<Row>();
  const page = keyset.cut(results, limit);
  return { entries: page.rows.map(toAuditEntry), nextCursor: page.nextCursor };
}

/**
 * What a `target` filter stands for: itself and, when it is an email, that
 * email as stored (lower case, the target of a failed `user.create`) and the
 * id of the user who has it now.
 */
async function targetIds(environment: AdminEnvironment, target: string): Promise<string[]> {
  if (!target.includes("@")) return [target];
  const email = target.trim().toLowerCase();
  const userId = await findUserIdByEmail(environment, email);
  return [...new Set([target, email, ...(userId === null ? [] : [userId])])];
}

function toAuditEntry(row: Row): AuditEntry {
  const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
  return {
    id: String(row.id),
    at: new Date(String(row.at)).toISOString(),
    operator: String(row.operator),
    action: String(row.action),
    targetType: String(row.targetType) as AuditTargetType,
    targetId: String(row.targetId),
    userId: text(row.userId),
    outcome: row.outcome === "ok" ? "ok" : "error",
    user:
      row.user_id === null || row.user_id === undefined
        ? null
        : { name: String(row.user_name), email: String(row.user_email) },
    detail: text(row.detail),
    reason: text(row.reason),
  };
}
