import type { SqlNames } from "../admin/sql-names.ts";
import type { KeptObjects } from "../migrations/kept-objects.ts";

/**
 * Name of svc's revocation log: one row per change that may end or alter a
 * credential (a session updated or deleted, a user updated or deleted), with
 * an ever-growing sequence number. Triggers on better-auth's `session` and
 * `user` tables write it, so every path is caught: better-auth's endpoints
 * (sign-out, revoke, ban, stop impersonating), svc's admin routes (which
 * delete with plain SQL) and anyone's own SQL. Each isolate reads it at most
 * every few hundred milliseconds to evict what it cached (see
 * `RevocationFeed`); no request reads it.
 *
 * @example
 * ```ts
 * `SELECT "seq", "kind", "id" FROM "${REVOCATION_TABLE}" WHERE "seq" > ?`;
 * ```
 */
export const REVOCATION_TABLE = "svc_revocation";

/**
 * How long (ms) a log row is kept. Pruning is by the log's own triggers
 * (each new row deletes up to 8 rows older than this), so the log stays the
 * size of ten minutes of changes. An isolate that fell further behind
 * notices the gap and drops everything it cached.
 *
 * @example
 * ```ts
 * REVOCATION_RETENTION_MS; // 600000
 * ```
 */
export const REVOCATION_RETENTION_MS = 600_000;

/** Milliseconds since the epoch, in SQL that every SQLite version has. */
const NOW_MS = "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)";

/**
 * The revocation log as a {@link KeptObjects} set: the table and its five
 * triggers (session update and delete, user update and delete, pruning).
 *
 * Why this shape:
 * - `AUTOINCREMENT`, so a sequence number is never reused, even after the
 *   newest rows were pruned; pruning never removes the newest row, so
 *   `max(seq)` is always the latest change.
 * - Any update counts, not only bans: a role, a name, an active
 *   organization are part of the identity procedures see. A session's
 *   refresh (once a day per session by default) is an update too.
 * - Rows carry ids only (a session id is not a credential; the token is
 *   never written here).
 *
 * @example
 * ```ts
 * const kept = revocationLog(names);
 * ```
 */
export function revocationLog(names: SqlNames): KeptObjects {
  const table = `"${REVOCATION_TABLE}"`;
  const record = (kind: "session" | "user", id: string) =>
    `INSERT INTO ${table}("kind", "id", "at") VALUES ('${kind}', ${id}, ${NOW_MS});`;
  const trigger = (name: string, event: string, on: string, body: string) =>
    `CREATE TRIGGER "${REVOCATION_TABLE}_${name}" AFTER ${event} ON ${on} BEGIN ${body} END`;
  const session = names.table("session");
  const user = names.table("user");
  const sessionId = `old.${names.column("session", "id")}`;
  const userId = `old.${names.column("user", "id")}`;
  const prune =
    `DELETE FROM ${table} WHERE "seq" IN (SELECT "seq" FROM ${table} WHERE "seq" < new."seq" ` +
    `ORDER BY "seq" LIMIT 8) AND "at" < new."at" - ${REVOCATION_RETENTION_MS};`;
  return {
    table: REVOCATION_TABLE,
    statements: [
      `CREATE TABLE ${table} ("seq" INTEGER PRIMARY KEY AUTOINCREMENT, "kind" TEXT NOT NULL, "id" TEXT NOT NULL, "at" INTEGER NOT NULL)`,
      trigger("session_update", "UPDATE", session, record("session", sessionId)),
      trigger("session_delete", "DELETE", session, record("session", sessionId)),
      trigger("user_update", "UPDATE", user, record("user", userId)),
      trigger("user_delete", "DELETE", user, record("user", userId)),
      trigger("prune", "INSERT", table, prune),
    ],
    fill: [],
  };
}
