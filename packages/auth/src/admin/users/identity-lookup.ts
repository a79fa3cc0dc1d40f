import type { Identity } from "@svc/server";
import { parseUserOutput } from "better-auth/db";
import type { SessionIdentity } from "../../session-identity.ts";
import type { AdminEnvironment } from "../environment.ts";

/**
 * The identity procedures would see for a user, found by id (or, for a value
 * with an `@`, by email), without signing them in: `sessionIdentity`'s shape
 * with the user's fields as better-auth answers them (fields marked
 * `returned: false` left out) and no session (`sessionId` is `""`, `session`
 * is `{}`). `null` when there is no such user. The data studio views tables
 * and runs procedures as this identity (`createWorker`'s `lookupIdentity`).
 *
 * @example
 * ```ts
 * const identity = await lookupIdentity(environment, "ann@example.com");
 * identity?.userId; // "u_…"
 * ```
 */
export async function lookupIdentity(
  environment: AdminEnvironment,
  idOrEmail: string,
): Promise<Identity | null> {
  const adapter = environment.auth.internalAdapter;
  const user =
    (await adapter.findUserById(idOrEmail)) ??
    (idOrEmail.includes("@") ? ((await adapter.findUserByEmail(idOrEmail))?.user ?? null) : null);
  if (user === null) return null;
  const fields = JSON.parse(JSON.stringify(parseUserOutput(environment.auth.options, user)));
  return {
    userId: user.id,
    sessionId: "",
    user: fields,
    session: {},
  } satisfies SessionIdentity;
}
