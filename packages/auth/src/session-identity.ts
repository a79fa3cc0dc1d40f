import type { Identity, IdentityResolver } from "@svc/server";

/** A JSON-safe value: what crosses into a Durable Object intact. */
type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** The slice of an auth instance the resolver calls. */
export interface SessionSource {
  api: {
    getSession(context: {
      headers: Headers;
    }): Promise<{ session: object; user: object & { id: string } } | null>;
  };
}

/**
 * The identity procedures see on `ctx.auth.getIdentity()` for a signed-in
 * caller: the user and the session as plain JSON (dates as ISO-8601 strings,
 * so the value survives the structured clone into the shard). The session
 * token is left out: it is a credential, and procedures may return the
 * identity to clients.
 */
export interface SessionIdentity extends Identity {
  userId: string;
  sessionId: string;
  user: { [field: string]: Json };
  session: { [field: string]: Json };
}

/**
 * The `resolveIdentity` for `createWorker`: reads the better-auth session from
 * the request's cookie, or from `Authorization: Bearer <token>` when the
 * `bearer` plugin is enabled, and gives procedures `ctx.auth.userId` (the
 * user id) and `ctx.auth.getIdentity()` ({@link SessionIdentity}); no session
 * means an anonymous call. RPC and REST resolve through it alike.
 *
 * Pass the auth instance, or a function of `env` when the instance is built
 * per environment.
 *
 * @example
 * ```ts
 * export default createWorker({ shardDO: "SHARD", functions, resolveIdentity: sessionIdentity(auth) });
 * // or: sessionIdentity((env: Env) => makeAuth(env))
 * ```
 */
export function sessionIdentity<Env = unknown>(
  auth: SessionSource | ((env: Env) => SessionSource),
): IdentityResolver<Env> {
  return async (request, env) => {
    const source = typeof auth === "function" ? auth(env) : auth;
    const found = await source.api.getSession({ headers: request.headers });
    if (!found) return null;
    const session = toJsonObject(found.session);
    delete session.token;
    const user = toJsonObject(found.user);
    return {
      userId: found.user.id,
      sessionId: typeof session.id === "string" ? session.id : "",
      user,
      session,
    } satisfies SessionIdentity;
  };
}

/** Copies a record into JSON-safe data: dates become ISO strings, functions and undefined drop out. */
function toJsonObject(record: object): { [field: string]: Json } {
  return JSON.parse(JSON.stringify(record)) as { [field: string]: Json };
}
