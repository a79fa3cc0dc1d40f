import { defineErrorCodes } from "@svc/server/errors";

/**
 * Every way `@svc/auth` refuses a configuration or a call, by code. The codes
 * are stable: match on `error.code`, never on the message. Each is the app's
 * bug, not the caller's, so each answers 500 (a client sees `INTERNAL`).
 *
 * @see ../README.md
 *
 * @example
 * ```ts
 * authErrorCodes.codes.AUTH_SECRET_MISSING.title; // "Auth secret missing"
 * ```
 */
export const authErrorCodes = defineErrorCodes("SvcAuthError", {
  /** `createAuth` / `compileMigrationsSql` got no usable `secret`. */
  AUTH_SECRET_MISSING: { status: 500, title: "Auth secret missing" },
  /** `svcDatabaseAdapter` got something that is not a D1 binding. */
  AUTH_DATABASE_NOT_D1: { status: 500, title: "Auth database is not D1" },
  /** `ensureMigrated` was called on an auth built without a database. */
  AUTH_DATABASE_MISSING: { status: 500, title: "Auth database missing" },
  /** `ensureMigrated` cannot diff this kind of database (non-Kysely adapter). */
  AUTH_DATABASE_UNSUPPORTED: { status: 500, title: "Auth database unsupported" },
  /** The schema could not be brought up to date (the cause says why). */
  AUTH_MIGRATION_FAILED: { status: 500, title: "Auth migration failed" },
  /** `serviceAccount` options of `withAuthPlugins` are impossible. */
  AUTH_SERVICE_ACCOUNT_INVALID: { status: 500, title: "Service account invalid" },
  /** A cron job or queue consumer called `ctx.authApi` without credentials and no `serviceAccount` is configured. */
  AUTH_SERVICE_ACCOUNT_MISSING: { status: 500, title: "Service account missing" },
  /** A `ctx.authApi` endpoint was called without `headers`. */
  AUTH_API_HEADERS_REQUIRED: { status: 500, title: "Auth API headers required" },
  /** `createAuthAdmin` got an unknown option or an impossible value. */
  AUTH_ADMIN_INVALID_OPTIONS: { status: 500, title: "Auth admin options invalid" },
  /** `createAuthAdmin` got an auth without svc's schema (built with `betterAuth`, not `createAuth`). */
  AUTH_ADMIN_SCHEMA_MISSING: { status: 500, title: "Auth admin schema missing" },
  /** `createAuthAdmin` cannot run on this auth: not on D1, or sessions kept in `secondaryStorage`. */
  AUTH_ADMIN_UNSUPPORTED: { status: 500, title: "Auth admin unsupported" },
  /**
   * A plugin whose better-auth package is an optional peer (`passkey`, `mcp`) was called from
   * `@svc/auth/plugins`; it lives on its own subpath so that apps without it still install.
   */
  AUTH_PLUGIN_SUBPATH: { status: 500, title: "Auth plugin lives on its own subpath" },
});

/**
 * Each `@svc/auth` error code mapped to itself.
 *
 * @example
 * ```ts
 * if (error.code === AUTH_ERROR_CODES.AUTH_SECRET_MISSING) …
 * ```
 */
export const AUTH_ERROR_CODES = authErrorCodes.names;

/** A code from {@link authErrorCodes}. */
export type AuthErrorCode = keyof typeof authErrorCodes.codes;

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
export class SvcAuthError extends authErrorCodes.Error {
  override readonly name = "SvcAuthError";

  constructor(code: AuthErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, `svc/auth: ${message}`, options);
  }
}
