import { SvcError } from "@svc/server";
import { type AdminUser, STORED_USER_FIELDS } from "../contract/index.ts";
import type { AdminEnvironment } from "../environment.ts";
import { type Row, toUser } from "../records.ts";
import { activitySelect } from "../user-activity.ts";

/**
 * The statement that reads one user (by id) with every admin field, for use
 * alone or as the last step of a batch that changed the user (one round trip
 * for "change, then answer with the new state").
 *
 * @example
 * ```ts
 * const [, , read] = await db.batch([update, audit.okStatement(), selectUser(environment, id)]);
 * ```
 */
export function selectUser(environment: AdminEnvironment, id: string): D1PreparedStatement {
  const { names, db } = environment;
  return db
    .prepare(
      `SELECT ${names.select("user", STORED_USER_FIELDS, "u")}, ` +
        `${activitySelect(environment.userActivity, names.column("user", "id", "u"))} FROM ${names.table("user")} u ` +
        `WHERE ${names.column("user", "id", "u")} = ?`,
    )
    .bind(id);
}

/**
 * A user row by id.
 *
 * @throws {SvcError} `NOT_FOUND` when there is no such user
 * @example
 * ```ts
 * const row = await loadUserRow(environment, call.params.id);
 * ```
 */
export async function loadUserRow(environment: AdminEnvironment, id: string): Promise<Row> {
  const row = await selectUser(environment, id).first<Row>();
  if (row === null) throw userNotFound(id);
  return row;
}

/**
 * The user of a batch result read by {@link selectUser}.
 *
 * @throws {SvcError} `NOT_FOUND` when the batch found no such user
 * @example
 * ```ts
 * return json({ user: userOf(results[2], id) });
 * ```
 */
export function userOf(result: D1Result<Row> | undefined, id: string): AdminUser {
  const row = result?.results[0];
  if (row === undefined) throw userNotFound(id);
  return toUser(row, Date.now());
}

/**
 * The id of the user with this email (compared as stored: lower case), or
 * `null`: how routes that take an email find the user it names.
 *
 * @example
 * ```ts
 * const id = await findUserIdByEmail(environment, "Ann@Example.com");
 * ```
 */
export async function findUserIdByEmail(
  environment: AdminEnvironment,
  email: string,
): Promise<string | null> {
  const { names, db } = environment;
  const row = await db
    .prepare(
      `SELECT ${names.column("user", "id")} AS id FROM ${names.table("user")} ` +
        `WHERE ${names.column("user", "email")} = ?`,
    )
    .bind(email.trim().toLowerCase())
    .first<{ id: string }>();
  return row === null ? null : String(row.id);
}

/** The `NOT_FOUND` of an unknown user id. */
function userNotFound(id: string): SvcError {
  return new SvcError("NOT_FOUND", `No user with id ${JSON.stringify(id)}.`);
}
