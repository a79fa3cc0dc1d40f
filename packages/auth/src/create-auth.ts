import { type Auth, type BetterAuthOptions, betterAuth } from "better-auth";
import { withSvcAdminSchema } from "./admin/schema-plugin.ts";
import { assertSecret } from "./secret.ts";

/**
 * better-auth's options, with `secret` required. `database` is the value of
 * {@link svcDatabaseAdapter} (or `undefined` for schema-only use).
 */
export type SvcAuthOptions = BetterAuthOptions & { secret: string };

/** An auth instance built by {@link createAuth}: better-auth's own `Auth`. */
export type SvcAuth<Options extends BetterAuthOptions = BetterAuthOptions> = Auth<Options>;

/**
 * Builds the better-auth instance with the options passed through unchanged.
 * It adds two things: failing at once, with directions, when `secret` is
 * missing or blank (better-auth would only complain at first use), and svc's
 * schema-only plugin (`svc-admin`: the admin audit table and the indexes of
 * the admin lists) at the end of `plugins`, so `ensureMigrated` creates them
 * and `createAuthAdmin` finds them.
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
 * @see ../../../shared/spec/service-spec.md "Auth instance options"
 */
export function createAuth<Options extends SvcAuthOptions>(options: Options & {}): Auth<Options> {
  assertSecret(options?.secret, "createAuth");
  const instance = betterAuth({ ...options, plugins: withSvcAdminSchema(options.plugins) });
  // The appended plugin is a schema only (no endpoints, hooks or inferred
  // types), so the instance's type is exactly better-auth's for `options`.
  return instance as Auth<Options>;
}
