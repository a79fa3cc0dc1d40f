import type { KeptObjects } from "../migrations/kept-objects.ts";
import type { AdminDatabase } from "./read-session.ts";
import type { SqlNames } from "./sql-names.ts";
import { USER_ACTIVITY_TABLE } from "./user-activity.ts";

/**
 * Name of svc's user counters: one row per counted thing, kept by triggers
 * on the user table and on the user activity table, so the overview and the
 * users list read a handful of rows instead of counting a million users.
 * Keys (see {@link COUNT_KEYS}): `users`, `emailVerified`, `banned` (users
 * with the ban flag set, expired or not), `role:<role string>` (`role:` for
 * none), `signup:<YYYY-MM-DD>` (users created that UTC day) and
 * `active:<YYYY-MM-DDTHH>` (users whose last activity falls in that UTC hour).
 *
 * @example
 * ```ts
 * `SELECT "n" FROM "${USER_COUNTS_TABLE}" WHERE "key" = 'users'`;
 * ```
 */
export const USER_COUNTS_TABLE = "svc_user_counts";

/**
 * The counter keys, as the triggers write them.
 *
 * @example
 * ```ts
 * COUNT_KEYS.signUps("2026-11-25"); // "signup:2026-11-25"
 * ```
 */
export const COUNT_KEYS = {
  users: "users",
  emailVerified: "emailVerified",
  banned: "banned",
  role: (role: string) => `role:${role}`,
  signUps: (day: string) => `signup:${day}`,
  active: (hour: string) => `active:${hour}`,
} as const;

/**
 * svc's user counters as a {@link KeptObjects} set: the table, the triggers
 * that keep it (user insert, delete, and updates of the counted fields;
 * activity insert, update and delete), and the statements that fill it from
 * existing users. Run after the user activity table's own statements.
 *
 * Why this shape:
 * - One `WITHOUT ROWID` table keyed by name: every read is a primary-key
 *   lookup or range (`signup:` days, `active:` hours, `role:` strings).
 * - Active users by the hour of their *last* activity (`svc_user_activity`):
 *   a user moving from one hour to a later one leaves the first, so the
 *   users active since any moment are a sum of hours (plus the part of the
 *   boundary hour, counted from the activity index), never a scan.
 * - Bans counted by flag: whether a ban is in force depends on the clock,
 *   so readers subtract the flagged bans that have expired (an index range).
 *
 * @example
 * ```ts
 * const kept = userCounts(names);
 * ```
 */
export function userCounts(names: SqlNames): KeptObjects {
  const table = `"${USER_COUNTS_TABLE}"`;
  const user = names.table("user");
  const column = (field: string) => names.column("user", field);
  const hasBans = names.hasField("user", "banned");
  const hasRoles = names.hasField("user", "role");
  const bump = (key: string, delta: string, when = "") =>
    `INSERT INTO ${table}("key", "n") SELECT ${key}, ${delta} WHERE ${when || "1"} ` +
    `ON CONFLICT("key") DO UPDATE SET "n" = "n" + excluded."n";`;
  const flag = (row: "new" | "old", field: string) => `(${row}.${column(field)} = 1)`;
  const roleKey = (row: "new" | "old") => `'role:' || coalesce(${row}.${column("role")}, '')`;
  const dayKey = (row: "new" | "old") =>
    `'signup:' || substr(${row}.${column("createdAt")}, 1, 10)`;
  const userRow = (row: "new" | "old", sign: "" | "-") =>
    [
      bump("'users'", `${sign}1`),
      bump("'emailVerified'", `${sign}1`, flag(row, "emailVerified")),
      ...(hasBans ? [bump("'banned'", `${sign}1`, flag(row, "banned"))] : []),
      ...(hasRoles ? [bump(roleKey(row), `${sign}1`)] : []),
      bump(dayKey(row), `${sign}1`),
    ].join(" ");
  const trigger = (name: string, event: string, on: string, body: string, when = "") =>
    `CREATE TRIGGER "${USER_COUNTS_TABLE}_${name}" AFTER ${event} ON ${on}${when ? ` WHEN ${when}` : ""} BEGIN ${body} END`;
  const changed = (field: string) => `old.${column(field)} IS NOT new.${column(field)}`;
  const activity = `"${USER_ACTIVITY_TABLE}"`;
  const hourKey = (row: "new" | "old") => `'active:' || substr(${row}."lastActiveAt", 1, 13)`;
  const seen = (row: "new" | "old") => `${row}."lastActiveAt" != ''`;
  return {
    table: USER_COUNTS_TABLE,
    statements: [
      `CREATE TABLE ${table} ("key" TEXT NOT NULL PRIMARY KEY, "n" INTEGER NOT NULL) WITHOUT ROWID`,
      trigger("user_insert", "INSERT", user, userRow("new", "")),
      trigger("user_delete", "DELETE", user, userRow("old", "-")),
      trigger(
        "verified",
        `UPDATE OF ${column("emailVerified")}`,
        user,
        bump(
          "'emailVerified'",
          `${flag("new", "emailVerified")} - ${flag("old", "emailVerified")}`,
        ),
        changed("emailVerified"),
      ),
      ...(hasBans
        ? [
            trigger(
              "banned",
              `UPDATE OF ${column("banned")}`,
              user,
              bump("'banned'", `${flag("new", "banned")} - ${flag("old", "banned")}`),
              changed("banned"),
            ),
          ]
        : []),
      ...(hasRoles
        ? [
            trigger(
              "role",
              `UPDATE OF ${column("role")}`,
              user,
              `${bump(roleKey("old"), "-1")} ${bump(roleKey("new"), "1")}`,
              changed("role"),
            ),
          ]
        : []),
      trigger(
        "created",
        `UPDATE OF ${column("createdAt")}`,
        user,
        `${bump(dayKey("old"), "-1")} ${bump(dayKey("new"), "1")}`,
        `substr(old.${column("createdAt")}, 1, 10) IS NOT substr(new.${column("createdAt")}, 1, 10)`,
      ),
      trigger("active_insert", "INSERT", activity, bump(hourKey("new"), "1"), seen("new")),
      trigger(
        "active_update",
        `UPDATE OF "lastActiveAt"`,
        activity,
        `${bump(hourKey("old"), "-1", seen("old"))} ${bump(hourKey("new"), "1", seen("new"))}`,
        `old."lastActiveAt" IS NOT new."lastActiveAt"`,
      ),
      trigger("active_delete", "DELETE", activity, bump(hourKey("old"), "-1"), seen("old")),
    ],
    fill: [
      `INSERT INTO ${table}("key", "n") SELECT 'users', COUNT(*) FROM ${user}`,
      `INSERT INTO ${table}("key", "n") SELECT 'emailVerified', COUNT(*) FROM ${user} WHERE ${column("emailVerified")} = 1`,
      ...(hasBans
        ? [
            `INSERT INTO ${table}("key", "n") SELECT 'banned', COUNT(*) FROM ${user} WHERE ${column("banned")} = 1`,
          ]
        : []),
      ...(hasRoles
        ? [
            `INSERT INTO ${table}("key", "n") SELECT 'role:' || coalesce(${column("role")}, ''), COUNT(*) FROM ${user} GROUP BY 1`,
          ]
        : []),
      `INSERT INTO ${table}("key", "n") SELECT 'signup:' || substr(${column("createdAt")}, 1, 10), COUNT(*) FROM ${user} GROUP BY 1`,
      `INSERT INTO ${table}("key", "n") SELECT 'active:' || substr("lastActiveAt", 1, 13), COUNT(*) FROM ${activity} WHERE "lastActiveAt" != '' GROUP BY 1`,
    ],
  };
}

/**
 * A statement reading the counters whose keys lie in [`from`, `to`): e.g.
 * every `signup:` day since a date, or every `role:` string.
 *
 * @example
 * ```ts
 * countsBetween(db, "signup:2026-11-01", "signup:~");
 * ```
 */
export function countsBetween(db: AdminDatabase, from: string, to: string): D1PreparedStatement {
  return db
    .prepare(
      `SELECT "key", "n" FROM "${USER_COUNTS_TABLE}" WHERE "key" >= ? AND "key" < ? ORDER BY "key"`,
    )
    .bind(from, to);
}
