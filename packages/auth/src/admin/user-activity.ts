import type { SqlNames } from "./sql-names.ts";

/**
 * Name of svc's user activity table: one row per user with the time of their
 * last sign-in and of their last activity (ISO-8601 text as better-auth
 * stores it; `''` until the first sign-in, answered as `null`).
 * Triggers on better-auth's `user` and `session` tables keep it current, so
 * `GET users?sort=lastActive` walks an index of its own instead of joining a
 * million users with their sessions.
 *
 * @example
 * ```ts
 * `SELECT "lastActiveAt" FROM "${USER_ACTIVITY_TABLE}" WHERE "userId" = ?`;
 * ```
 */
export const USER_ACTIVITY_TABLE = "svc_user_activity";

/** The indexes the users list walks for `sort=lastSignIn` / `sort=lastActive` (value, then user id). */
export const USER_ACTIVITY_INDEXES = {
  lastSignInAt: `${USER_ACTIVITY_TABLE}_sign_in_idx`,
  lastActiveAt: `${USER_ACTIVITY_TABLE}_active_idx`,
} as const;

/**
 * `SELECT` items reading a user's two activity times as `lastSignInAt` and
 * `lastActiveAt` (one primary-key lookup each), or `NULL`s when the database
 * has no activity table. `userId` is the SQL of the user's id.
 *
 * @example
 * ```ts
 * `SELECT ${names.select("user", STORED_USER_FIELDS, "u")}, ${activitySelect(true, 'u."id"')} FROM "user" u`;
 * ```
 */
export function activitySelect(present: boolean, userId: string): string {
  const read = (column: string) =>
    present
      ? `(SELECT "${column}" FROM "${USER_ACTIVITY_TABLE}" WHERE "userId" = ${userId}) AS "${column}"`
      : `NULL AS "${column}"`;
  return `${read("lastSignInAt")}, ${read("lastActiveAt")}`;
}

/** A row of `sqlite_master`: a table, index or trigger and its DDL. */
export interface ActivityObject {
  type: string;
  name: string;
  sql: string | null;
}

/**
 * The statements that create the activity table on a database that has the
 * user and session tables: the table, its two sort indexes and four triggers.
 * Each text is exactly what SQLite keeps in `sqlite_master`, so {@link
 * pendingActivityStatements} can tell a current table from a stale one.
 *
 * Why this shape:
 * - One row per user (a user insert adds one with `''` for "never"):
 *   sorting by activity is then one walk of one index. `''` rather than
 *   `NULL` so "never" is an ordinary value below every timestamp: users who
 *   never signed in come first in ascending order (the dormant accounts an
 *   admin looks for) and last in descending order, and the keyset
 *   cursor's `value >= ?` ranges cover them with no `IS NULL` branch.
 * - A session insert is a sign-in: it sets both times (an upsert, so a row
 *   missing for any reason is made). A session `updatedAt` change is
 *   better-auth refreshing the session (every `session.updateAge`, a day by
 *   default): it raises the last activity only, never lowers it.
 * - Impersonation sessions (`impersonatedBy` set) are skipped: an operator
 *   acting as the user is not the user signing in.
 * - `WITHOUT ROWID`: the rows live in the `userId` key, so the index entries
 *   (value, user id) cover a sort's walk and the join back to the user.
 *
 * @example
 * ```ts
 * const [table, ...rest] = activityStatements(names);
 * ```
 */
export function activityStatements(names: SqlNames): string[] {
  const table = `"${USER_ACTIVITY_TABLE}"`;
  const user = names.table("user");
  const session = names.table("session");
  const userId = names.column("session", "userId");
  const createdAt = names.column("session", "createdAt");
  const updatedAt = names.column("session", "updatedAt");
  const notImpersonated = names.hasField("session", "impersonatedBy")
    ? ` WHEN new.${names.column("session", "impersonatedBy")} IS NULL`
    : "";
  const raise = (column: string) => `"${column}" = max("${column}", excluded."${column}")`;
  return [
    `CREATE TABLE ${table} ("userId" TEXT NOT NULL PRIMARY KEY, "lastSignInAt" NOT NULL DEFAULT '', "lastActiveAt" NOT NULL DEFAULT '') WITHOUT ROWID`,
    `CREATE INDEX "${USER_ACTIVITY_INDEXES.lastSignInAt}" ON ${table} ("lastSignInAt", "userId")`,
    `CREATE INDEX "${USER_ACTIVITY_INDEXES.lastActiveAt}" ON ${table} ("lastActiveAt", "userId")`,
    `CREATE TRIGGER "${USER_ACTIVITY_TABLE}_user_insert" AFTER INSERT ON ${user} BEGIN ` +
      `INSERT OR IGNORE INTO ${table}("userId") VALUES (new.${names.column("user", "id")}); END`,
    `CREATE TRIGGER "${USER_ACTIVITY_TABLE}_user_delete" AFTER DELETE ON ${user} BEGIN ` +
      `DELETE FROM ${table} WHERE "userId" = old.${names.column("user", "id")}; END`,
    `CREATE TRIGGER "${USER_ACTIVITY_TABLE}_sign_in" AFTER INSERT ON ${session}${notImpersonated} BEGIN ` +
      `INSERT INTO ${table}("userId", "lastSignInAt", "lastActiveAt") VALUES (new.${userId}, new.${createdAt}, new.${createdAt}) ` +
      `ON CONFLICT("userId") DO UPDATE SET ${raise("lastSignInAt")}, ${raise("lastActiveAt")}; END`,
    `CREATE TRIGGER "${USER_ACTIVITY_TABLE}_refresh" AFTER UPDATE OF ${updatedAt} ON ${session}${notImpersonated} BEGIN ` +
      `UPDATE ${table} SET "lastActiveAt" = new.${updatedAt} WHERE "userId" = new.${userId} ` +
      `AND "lastActiveAt" < new.${updatedAt}; END`,
  ];
}

/**
 * What a database needs so its activity table matches {@link
 * activityStatements}, given the objects {@link activityObjectsQuery} lists:
 * nothing when all are there with the same text; otherwise drop those that
 * exist, create all, and, when the user table already exists, fill the table
 * from the users and their live sessions (one `INSERT … SELECT`). Sessions
 * deleted before (signed out, expired) are gone, so the filled times are a
 * lower bound. Run after better-auth's own DDL, in the same batch.
 *
 * @example
 * ```ts
 * const query = activityObjectsQuery(names);
 * const existing = await db.prepare(query.sql).bind(...query.binds).all<ActivityObject>();
 * statements.push(...pendingActivityStatements(names, existing.results));
 * ```
 */
export function pendingActivityStatements(
  names: SqlNames,
  existing: readonly ActivityObject[],
): string[] {
  const wanted = activityStatements(names);
  const userTable = unquote(names.table("user"));
  const objects = existing.filter((object) => object.name !== userTable);
  const have = new Set(objects.map((object) => object.sql));
  if (objects.length === wanted.length && wanted.every((sql) => have.has(sql))) return [];
  // Triggers first (they live on other tables); the table takes its indexes with it.
  const drops = [
    ...objects
      .filter((object) => object.type === "trigger")
      .map((object) => `DROP TRIGGER "${object.name.replaceAll('"', '""')}"`),
    ...(objects.some((object) => object.name === USER_ACTIVITY_TABLE)
      ? [`DROP TABLE "${USER_ACTIVITY_TABLE}"`]
      : []),
  ];
  const fill = existing.some((object) => object.name === userTable) ? [fillStatement(names)] : [];
  return [...drops, ...wanted, ...fill];
}

/** One row per existing user, with the times of their newest non-impersonation session. */
function fillStatement(names: SqlNames): string {
  const session = (field: string) => names.column("session", field);
  const notImpersonated = names.hasField("session", "impersonatedBy")
    ? ` WHERE ${session("impersonatedBy")} IS NULL`
    : "";
  return (
    `INSERT INTO "${USER_ACTIVITY_TABLE}"("userId", "lastSignInAt", "lastActiveAt") ` +
    `SELECT u.${names.column("user", "id")}, coalesce(s.signIn, ''), coalesce(s.active, '') FROM ${names.table("user")} u LEFT JOIN ` +
    `(SELECT ${session("userId")} AS userId, max(${session("createdAt")}) AS signIn, ` +
    `max(max(${session("createdAt")}, ${session("updatedAt")})) AS active ` +
    `FROM ${names.table("session")}${notImpersonated} GROUP BY ${session("userId")}) s ` +
    `ON s.userId = u.${names.column("user", "id")}`
  );
}

/**
 * The `sqlite_master` query for {@link pendingActivityStatements}: the
 * activity table, its indexes and triggers, and the user table (whose
 * presence says whether there are users to fill it from).
 *
 * @example
 * ```ts
 * const { sql, binds } = activityObjectsQuery(names);
 * ```
 */
export function activityObjectsQuery(names: SqlNames): { sql: string; binds: string[] } {
  return {
    sql:
      "SELECT type, name, sql FROM sqlite_master WHERE name = ? OR (type = 'table' AND name = ?) " +
      "OR (type IN ('index', 'trigger') AND name LIKE ? ESCAPE '\\')",
    binds: [
      USER_ACTIVITY_TABLE,
      unquote(names.table("user")),
      `${USER_ACTIVITY_TABLE.replaceAll("_", "\\_")}\\_%`,
    ],
  };
}

/** A quoted identifier's name (`"user"` → `user`). */
function unquote(identifier: string): string {
  return identifier.slice(1, -1).replaceAll('""', '"');
}
