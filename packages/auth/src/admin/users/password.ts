import { SvcError } from "@svc/server";
import type { AdminEnvironment } from "../environment.ts";
import type { AdminAnswer, AdminCall } from "../handler.ts";
import { Issues } from "../issues.ts";
import { loadUserRow } from "./load.ts";

/** better-auth's provider id of email + password accounts. */
const CREDENTIAL_PROVIDER = "credential";

/**
 * `POST users/:id/password` with `{ password }`: hashes it with better-auth's
 * own hasher and stores it on the user's credential account, or, when the
 * user has none (signed up with OAuth, a passkey, a magic link), creates one
 * so they can sign in with email + password from now on. Never a silent
 * no-op: without a credential account and with email + password sign-in
 * off, it is `409`. The password length follows better-auth's
 * `minPasswordLength` / `maxPasswordLength`.
 *
 * @example
 * ```ts
 * POST /_svc/admin/auth/users/u1/password { "password": "…" } → { updated: true, createdCredentialAccount: false }
 * ```
 */
export async function setPassword(
  call: AdminCall<"setPassword">,
): Promise<AdminAnswer<"setPassword">> {
  const { audit, ctx } = call;
  const { environment } = ctx;
  const { names, db, auth } = environment;
  const id = call.params.id;
  const { password } = call.body;
  checkPasswordLength(environment, password);
  const row = await loadUserRow(environment, id);
  const account = await db
    .prepare(
      `SELECT ${names.column("account", "id")} AS id FROM ${names.table("account")} ` +
        `WHERE ${names.column("account", "userId")} = ? AND ${names.column("account", "providerId")} = ? LIMIT 1`,
    )
    .bind(id, CREDENTIAL_PROVIDER)
    .first<{ id: string }>();
  if (account === null && !environment.emailAndPassword) {
    throw new SvcError(
      "CONFLICT",
      "The user has no password sign-in and email + password sign-in is not enabled, so a password could never be used.",
    );
  }
  const hash = await auth.password.hash(password);
  const now = new Date().toISOString();
  const column = (field: string) => names.column("account", field);
  let write: D1PreparedStatement;
  if (account !== null) {
    write = db
      .prepare(
        `UPDATE ${names.table("account")} SET ${column("password")} = ?, ${column("updatedAt")} = ? WHERE ${column("id")} = ?`,
      )
      .bind(hash, now, account.id);
    audit.detail = "password replaced";
  } else {
    write = insertCredentialAccount(environment, String(row.id), hash, now);
    audit.detail = "credential account created with the password";
  }
  await db.batch([write, audit.okStatement()]);
  return { updated: true, createdCredentialAccount: account === null };
}

/**
 * Refuses a password better-auth itself would refuse (too short, too long),
 * before anything is hashed or written.
 *
 * @throws {SvcError} `VALIDATION_FAILED` (path `body.password`)
 * @example
 * ```ts
 * checkPasswordLength(environment, body.password);
 * ```
 */
export function checkPasswordLength(environment: AdminEnvironment, password: string): void {
  const { minPasswordLength, maxPasswordLength } = environment.auth.password.config;
  const issues = new Issues("body");
  if (password.length < minPasswordLength) {
    issues.add("password", `must be at least ${minPasswordLength} characters`);
  }
  if (password.length > maxPasswordLength) {
    issues.add("password", `must be at most ${maxPasswordLength} characters`);
  }
  issues.throwIfAny();
}

function insertCredentialAccount(
  environment: AdminEnvironment,
  userId: string,
  hash: string,
  now: string,
): D1PreparedStatement {
  const { names, db, auth } = environment;
  const id = auth.generateId({ model: "account" });
  const values: [string, unknown][] = [
    ["accountId", userId],
    ["providerId", CREDENTIAL_PROVIDER],
    ["userId", userId],
    ["password", hash],
    ["createdAt", now],
    ["updatedAt", now],
  ];
  if (id !== false) values.unshift(["id", id]);
  return db
    .prepare(
      `INSERT INTO ${names.table("account")} (${values.map(([field]) => names.column("account", field)).join(", ")}) ` +
        `VALUES (${values.map(() => "?").join(", ")})`,
    )
    .bind(...values.map(([, value]) => value));
}
