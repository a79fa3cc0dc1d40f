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
 * Options of {@link sessionIdentity}.
 *
 * @example
 * ```ts
 * sessionIdentity(auth, { cache: { ttlMs: 10_000 } });
 * ```
 */
export interface SessionIdentityOptions {
  /**
   * Off by default. When set, each isolate remembers a resolved identity for
   * `ttlMs` (never past the session's own `expiresAt`), keyed by the exact
   * credential headers of the request (`cookie` and `authorization`), so a
   * caller repeating the same credentials skips better-auth's `getSession`
   * and its database read. The trade, as with better-auth's cookie cache: a
   * session revoked or a user banned keeps resolving in an isolate that has
   * it cached for up to `ttlMs`. Anonymous results are never cached.
   */
  cache?: {
    ttlMs: number;
    /** Most identities kept per isolate; the oldest go first. Default 1,000. */
    maxEntries?: number;
    /** Milliseconds since the epoch; tests pass a manual clock. Default `Date.now`. */
    clock?: () => number;
  };
}

/**
 * The `resolveIdentity` for `createWorker`: reads the better-auth session from
 * the request's cookie, or from `Authorization: Bearer <token>` when the
 * `bearer` plugin is enabled, and gives procedures `ctx.auth.userId` (the
 * user id) and `ctx.auth.getIdentity()` ({@link SessionIdentity}); no session
 * means an anonymous call. RPC and REST resolve through it alike.
 *
 * Pass the auth instance, or a function of `env` when the instance is built
 * per environment. `options.cache` trades revocation delay for speed
 * ({@link SessionIdentityOptions}).
 *
 * @example
 * ```ts
 * export default createWorker({ shardDO: "SHARD", functions, resolveIdentity: sessionIdentity(auth) });
 * // or: sessionIdentity((env: Env) => makeAuth(env))
 * // or, for read-heavy APIs: sessionIdentity(auth, { cache: { ttlMs: 10_000 } })
 * ```
 */
export function sessionIdentity<Env = unknown>(
  auth: SessionSource | ((env: Env) => SessionSource),
  options: SessionIdentityOptions = {},
): IdentityResolver<Env> {
  const resolve = async (request: Request, env: Env): Promise<SessionIdentity | null> => {
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
  if (options.cache === undefined) return resolve;
  return cachedResolver(resolve, options.cache);
}

function cachedResolver<Env>(
  resolve: (request: Request, env: Env) => Promise<SessionIdentity | null>,
  cache: NonNullable<SessionIdentityOptions["cache"]>,
): IdentityResolver<Env> {
  const { ttlMs, maxEntries = 1_000, clock = Date.now } = cache;
  if (!(Number.isFinite(ttlMs) && ttlMs > 0))
    throw new TypeError("sessionIdentity: cache.ttlMs must be a positive number of milliseconds");
  if (!(Number.isInteger(maxEntries) && maxEntries > 0))
    throw new TypeError("sessionIdentity: cache.maxEntries must be a positive integer");
  const entries = new Map<string, { identity: SessionIdentity; until: number }>();
  return async (request, env) => {
    const cookie = request.headers.get("cookie");
    const authorization = request.headers.get("authorization");
    if (cookie === null && authorization === null) return resolve(request, env);
    const key = `${authorization ?? ""}\n${cookie ?? ""}`;
    const now = clock();
    const hit = entries.get(key);
    if (hit !== undefined && hit.until > now) return structuredClone(hit.identity);
    entries.delete(key);
    const identity = await resolve(request, env);
    if (identity === null) return null;
    const expires = Date.parse(String(identity.session.expiresAt));
    const until = Math.min(now + ttlMs, Number.isNaN(expires) ? Number.POSITIVE_INFINITY : expires);
    entries.set(key, { identity, until });
    if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
    return structuredClone(identity);
  };
}

/** Copies a record into JSON-safe data: dates become ISO strings, functions and undefined drop out. */
function toJsonObject(record: object): { [field: string]: Json } {
  return JSON.parse(JSON.stringify(record)) as { [field: string]: Json };
}
