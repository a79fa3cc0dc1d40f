import type { AdminEnvironment } from "../environment.ts";
import { ACCOUNT_FIELDS, PASSKEY_FIELDS, SESSION_FIELDS } from "../records.ts";

/** Most rows any per-user list returns (sessions, accounts, passkeys), newest first. */
const MAX_RELATED_ROWS = 500;

/**
 * A user's sessions that have not expired (better-auth refuses expired ones
 * anyway), newest first, allow-listed columns only: the token is never read.
 *
 * @example
 * ```ts
 * const [sessions] = await db.batch([sessionsOf(environment, userId)]);
 * ```
 */
export function sessionsOf(environment: AdminEnvironment, userId: string): D1PreparedStatement {
  const unexpired = `${environment.names.column("session", "expiresAt", "t")} > ?`;
  return rowsOf(environment, "session", SESSION_FIELDS, unexpired).bind(
    userId,
    new Date().toISOString(),
  );
}

/**
 * A user's linked accounts, newest first, without password hashes or tokens.
 *
 * @example
 * ```ts
 * const accounts = await accountsOf(environment, userId).all();
 * ```
 */
export function accountsOf(environment: AdminEnvironment, userId: string): D1PreparedStatement {
  return rowsOf(environment, "account", ACCOUNT_FIELDS).bind(userId);
}

/**
 * A user's passkeys, newest first, without key material.
 *
 * @example
 * ```ts
 * const passkeys = await passkeysOf(environment, userId).all();
 * ```
 */
export function passkeysOf(environment: AdminEnvironment, userId: string): D1PreparedStatement {
  return rowsOf(environment, "passkey", PASSKEY_FIELDS).bind(userId);
}

function rowsOf(
  environment: AdminEnvironment,
  model: string,
  fields: readonly string[],
  condition?: string,
): D1PreparedStatement {
  const { names, db } = environment;
  const owner = `${names.column(model, "userId", "t")} = ?`;
  return db.prepare(
    `SELECT ${names.select(model, fields, "t")} FROM ${names.table(model)} t ` +
      `WHERE ${condition === undefined ? owner : `${owner} AND ${condition}`} ` +
      `ORDER BY ${names.column(model, "createdAt", "t")} DESC, ${names.column(model, "id", "t")} DESC ` +
      `LIMIT ${MAX_RELATED_ROWS}`,
  );
}
