/**
 * Every way `@svc/auth` refuses a configuration or a call, by code. The codes
 * are stable: match on `error.code`, never on the message.
 *
 * @see ../README.md
 */
export const AUTH_ERROR_CODES = {
  /** `createAuth` / `compileMigrationsSql` got no usable `secret`. */
  AUTH_SECRET_MISSING: "AUTH_SECRET_MISSING",
  /** `svcDatabaseAdapter` got something that is not a D1 binding. */
  AUTH_DATABASE_NOT_D1: "AUTH_DATABASE_NOT_D1",
  /** `ensureMigrated` was called on an auth built without a database. */
  AUTH_DATABASE_MISSING: "AUTH_DATABASE_MISSING",
  /** `ensureMigrated` cannot diff this kind of database (non-Kysely adapter). */
  AUTH_DATABASE_UNSUPPORTED: "AUTH_DATABASE_UNSUPPORTED",
  /** The schema could not be brought up to date (the cause says why). */
  AUTH_MIGRATION_FAILED: "AUTH_MIGRATION_FAILED",
  /** `serviceAccount` options of `withAuthPlugins` are impossible. */
  AUTH_SERVICE_ACCOUNT_INVALID: "AUTH_SERVICE_ACCOUNT_INVALID",
  /** A cron job or queue consumer called `ctx.authApi` without credentials and no `serviceAccount` is configured. */
  AUTH_SERVICE_ACCOUNT_MISSING: "AUTH_SERVICE_ACCOUNT_MISSING",
  /** A `ctx.authApi` endpoint was called without `headers`. */
  AUTH_API_HEADERS_REQUIRED: "AUTH_API_HEADERS_REQUIRED",
  /** `createAuthAdmin` got an unknown option or an impossible value. */
  AUTH_ADMIN_INVALID_OPTIONS: "AUTH_ADMIN_INVALID_OPTIONS",
  /** `createAuthAdmin` got an auth without svc's schema (built with `betterAuth`, not `createAuth`). */
  AUTH_ADMIN_SCHEMA_MISSING: "AUTH_ADMIN_SCHEMA_MISSING",
  /** `createAuthAdmin` cannot run on this auth: not on D1, or sessions kept in `secondaryStorage`. */
  AUTH_ADMIN_UNSUPPORTED: "AUTH_ADMIN_UNSUPPORTED",
} as const;

/** A code from {@link AUTH_ERROR_CODES}. */
export type AuthErrorCode = keyof typeof AUTH_ERROR_CODES;

/**
 * A misconfiguration or misuse of `@svc/auth`, caught before better-auth sees
 * it so the message can say what to change. Thrown inside a procedure it
 * reaches the client as `INTERNAL` (the message stays in the server log),
 * because it is the app's bug, not the caller's.
 *
 * @example
 * ```ts
 * try { createAuth({ secret: "" }); }
 * catch (error) { if (error instanceof SvcAuthError && error.code === "AUTH_SECRET_MISSING") … }
 * ```
 */
export class SvcAuthError extends Error {
  override readonly name = "SvcAuthError";
  readonly code: AuthErrorCode;

  constructor(code: AuthErrorCode, message: string, options?: { cause?: unknown }) {
    super(`svc/auth: ${message}`, options);
    this.code = code;
  }
}
