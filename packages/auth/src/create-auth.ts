import { type Auth, type BetterAuthOptions, betterAuth } from "better-auth";
import { assertSecret } from "./secret.ts";

/**
 * better-auth's options, with `secret` required. `database` is the value of
 * {@link svcDatabaseAdapter} (or `undefined` for schema-only use).
 */
export type SvcAuthOptions = BetterAuthOptions & { secret: string };

/** An auth instance built by {@link createAuth}: better-auth's own `Auth`. */
export type SvcAuth<Options extends BetterAuthOptions = BetterAuthOptions> = Auth<Options>;

/**
 * Builds the better-auth instance with the options passed through unchanged;
 * the one thing it adds is failing at once, with directions, when `secret` is
 * missing or blank (better-auth would only complain at first use).
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
  return betterAuth(options);
}
