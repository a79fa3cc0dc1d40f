import { type Auth, type BetterAuthOptions, betterAuth } from "better-auth";
import { withSvcAdminSchema } from "./admin/schema-plugin.ts";
import { withImpersonationGuard } from "./impersonation/guard-plugin.ts";
import { assertSecret } from "./secret.ts";

/**
 * better-auth's options, with `secret` required. `database` is the value of
 * {@link svcDatabaseAdapter} (or `undefined` for schema-only use).
 */
export type SvcAuthOptions = BetterAuthOptions & { secret: string };

/** An auth instance built by {@link createAuth}: better-auth's own `Auth`. */
export type SvcAuth<Options extends BetterAuthOptions = BetterAuthOptions> = Auth<Options>;

/**
 * Builds the better-auth instance with the options passed through unchanged,
 * with five additions:
 *
 * - a missing or blank `secret` fails at once, with directions (better-auth
 *   would only complain at first use);
 * - svc's schema-only plugin (`svc-admin`: the admin audit table and the
 *   indexes of the admin lists) is appended to `plugins`, so `ensureMigrated`
 *   creates them and `createAuthAdmin` finds them;
 * - `advanced.database.validateSchema` defaults to `false`: better-auth checks
 *   the schema as soon as the instance is built, which in a worker is module
 *   load, where workerd forbids I/O, so it could only log "Could not validate
 *   the database schema" on every cold start. `ensureMigrated` (or the
 *   migrations from `compileMigrationsSql`) is what keeps the schema right.
 *   Set it to `true` to get better-auth's check back.
 * - `advanced.database.joins` defaults to `true`: reading a session then
 *   takes one joined query (session + user) instead of two, which cut the
 *   CPU of resolving identity from a cookie by a third on local D1 (3.8 →
 *   2.5 ms per request, `npm run bench`, gates). Set it to `false` to get
 *   better-auth's separate queries back.
 * - svc's impersonation guard (`svc-impersonation-guard`, unless `plugins`
 *   holds one already): an impersonation session never outlives the
 *   `expiresAt` it was given, and may call only an allow-list of endpoints
 *   (the session, the user's own data, sign-out, organization reads); every
 *   other one answers `403`, audited; see `impersonationGuard`.
 *
 * @example
 * ```ts
 * import { env } from "cloudflare:workers";
 * import { createAuth, svcDatabaseAdapter } from "@svc/auth";
 * import { bearer } from "@svc/auth/plugins";
 *
 * export const auth = createAuth({
 *   secret: env.AUTH_SECRET,
 *   database: svcDatabaseAdapter(env.DB),
 *   emailAndPassword: { enabled: true },
 *   plugins: [bearer()],
 * });
 * ```
 * @see ../../../docs/auth.md "`createAuth(options)`"
 */
export function createAuth<Options extends SvcAuthOptions>(options: Options & {}): Auth<Options> {
  assertSecret(options?.secret, "createAuth");
  const database = options.advanced?.database;
  const advanced = {
    ...options.advanced,
    database: { validateSchema: false, joins: true, ...database },
  };
  const instance = betterAuth({
    ...options,
    advanced,
    plugins: withImpersonationGuard(withSvcAdminSchema(options.plugins)),
  });
  // The appended plugins add no endpoints and no inferred types (a schema, and
  // hooks), so the instance's type is exactly better-auth's for `options`.
  return instance as Auth<Options>;
}
