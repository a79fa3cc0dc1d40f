import type { Identity, IdentityResolver } from "@svc/server";
import { isD1Like } from "./database.ts";
import { d1RevocationReader } from "./revocation/log-reader.ts";
import { type CacheTags, RevocableCache } from "./revocation/revocable-cache.ts";
import { RevocationFeed, registerRevocationFeed } from "./revocation/revocation-feed.ts";

/** A JSON-safe value: what crosses into a Durable Object intact. */
type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** The slice of an auth instance the resolver calls. */
export interface SessionSource {
  api: {
    getSession(context: {
      headers: Headers;
    }): Promise<{ session: object; user: object & { id: string } } | null>;
  };
  /**
   * better-auth's options, where the instance has them: the identity cache
   * reads `database` (a D1 binding carries the revocation log) and
   * `secondaryStorage` (sessions kept outside D1 escape the log).
   */
  options?: object;
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
 * sessionIdentity(auth, { cache: { ttlMs: 30_000, revocationMs: 250 } });
 * sessionIdentity(auth, { cache: false }); // better-auth's getSession on every call
 * ```
 */
export interface SessionIdentityOptions {
  /**
   * The per-isolate identity cache, on by default. A resolved identity is
   * kept per isolate, keyed by the exact credential headers of the request
   * (`cookie` and `authorization`), so a caller repeating its credentials
   * skips better-auth's `getSession` and its database read. Revocation still
   * bites: svc's revocation log in D1 (`svc_revocation`, written by triggers
   * whenever a session or user row is updated or deleted) is read by each
   * isolate at most every `revocationMs / 2` while requests come, and a
   * cached identity is served only while that view is younger than
   * `revocationMs`; so sign-out, session revoke, ban, impersonation end, a
   * role change or a deleted user stop resolving everywhere within
   * `revocationMs`. Anonymous results are never cached.
   *
   * Without a D1 database that has the log (another adapter, or better-auth's
   * `secondaryStorage` holding sessions), the default asks `getSession` on
   * every call; an explicit `cache` object there is a plain time-bounded
   * cache (a revoked session keeps resolving for up to `ttlMs`). `false`
   * turns the cache off.
   */
  cache?:
    | false
    | {
        /**
         * Longest an identity is kept, in ms (never past the session's `expiresAt`); each is
         * kept between three quarters of it and all of it, at random, so identities cached
         * together are not all read again together. The log already evicts an identity whose
         * session or user changed; this bounds how long better-auth goes unasked for a caller
         * (its `updateAge` session refresh, a day by default), and each ask is a `getSession`
         * of about 3 ms of CPU. @default 300000
         */
        ttlMs?: number;
        /** Most identities kept per isolate; the least recently used go first. @default 5000 */
        maxEntries?: number;
        /** The revocation bound, in ms (see above). @default 500 */
        revocationMs?: number;
        /** Milliseconds since the epoch; tests pass a manual clock. @default Date.now */
        clock?: () => number;
      };
}

/** The cache settings when none are given. */
const DEFAULT_CACHE = { ttlMs: 300_000, maxEntries: 5_000, revocationMs: 500 } as const;

/**
 * The `resolveIdentity` for `createWorker`: reads the better-auth session from
 * the request's cookie, or from `Authorization: Bearer <token>` when the
 * `bearer` plugin is enabled, and gives procedures `ctx.auth.userId` (the
 * user id) and `ctx.auth.getIdentity()` ({@link SessionIdentity}); no session
 * means an anonymous call. RPC and REST resolve through it alike.
 *
 * Pass the auth instance, or a function of `env` when the instance is built
 * per environment. Identities are cached per isolate and revoked within
 * 500 ms everywhere ({@link SessionIdentityOptions}).
 *
 * @example
 * ```ts
 * export default createWorker({ shardDO: "SHARD", functions, resolveIdentity: sessionIdentity(auth) });
 * // or: sessionIdentity((env: Env) => makeAuth(env))
 * ```
 */
export function sessionIdentity<Env = unknown>(
  auth: SessionSource | ((env: Env) => SessionSource),
  options: SessionIdentityOptions = {},
): IdentityResolver<Env> {
  const sourceOf = (env: Env) => (typeof auth === "function" ? auth(env) : auth);
  const exact = async (request: Request, env: Env) =>
    toIdentity(await sourceOf(env).api.getSession({ headers: request.headers }));
  if (options.cache === false) return exact;
  const explicit = options.cache !== undefined;
  const settings = { ...DEFAULT_CACHE, ...options.cache };
  const caches = cachesFor(settings, explicit);
  // Fails at once on bad settings, not at the first request.
  new RevocableCache(null, settings);
  if (!(Number.isFinite(settings.revocationMs) && settings.revocationMs > 0))
    throw new TypeError(
      "sessionIdentity: cache.revocationMs must be a positive number of milliseconds",
    );
  return async (request, env) => {
    const cookie = request.headers.get("cookie");
    const authorization = request.headers.get("authorization");
    if (cookie === null && authorization === null) return exact(request, env);
    const cache = caches(sourceOf(env));
    if (cache === null) return exact(request, env);
    const kept = await cache.get(
      `${authorization ?? ""}\n${cookie ?? ""}`,
      async () => {
        const found = await exact(request, env);
        return found === null ? null : JSON.stringify(found);
      },
      (text) => tagsOf(JSON.parse(text) as SessionIdentity),
    );
    // A fresh copy per call: a caller changing its identity must not change the cached one. The
    // cache keeps the identity's JSON text (it is JSON by construction): parsing it costs a fifth
    // of a `structuredClone`, which was most of a cached call's CPU (BENCHMARKS.md section 1a).
    return kept === null ? null : (JSON.parse(kept) as SessionIdentity);
  };
}

/** What revokes a cached identity: its session's and its user's log rows, and its session's end. */
function tagsOf(identity: SessionIdentity): CacheTags {
  return {
    revokedBy: [
      ["session", identity.sessionId],
      ["user", identity.userId],
    ],
    expiresAt: Date.parse(String(identity.session.expiresAt)),
  };
}

/** The session and user as a {@link SessionIdentity}, without the token. */
function toIdentity(
  found: { session: object; user: object & { id: string } } | null,
): SessionIdentity | null {
  if (!found) return null;
  const session = toJsonObject(found.session);
  delete session.token;
  return {
    userId: found.user.id,
    sessionId: typeof session.id === "string" ? session.id : "",
    user: toJsonObject(found.user),
    session,
  };
}

/**
 * The identity cache of each database (one per D1 binding, so two auth
 * databases never share entries), or `null` where identities must be
 * resolved per call. Decided once per auth instance (its `options` are
 * fixed when better-auth builds it) and remembered: looking at the
 * database's methods on every call was 0.9 % of the CPU profile samples of
 * the bench's identity target (three property reads on a binding, through
 * the bench's counting proxy there), more than the cache lookup itself.
 */
function cachesFor(
  settings: { ttlMs: number; maxEntries: number; revocationMs: number; clock?: () => number },
  explicit: boolean,
): (source: SessionSource) => RevocableCache<string> | null {
  const byDatabase = new WeakMap<object, RevocableCache<string>>();
  const bySource = new WeakMap<SessionSource, RevocableCache<string> | null>();
  let withoutLog: RevocableCache<string> | null = null;
  const decide = (source: SessionSource): RevocableCache<string> | null => {
    const { database, secondaryStorage } = (source.options ?? {}) as {
      database?: unknown;
      secondaryStorage?: unknown;
    };
    if (isD1Like(database) && secondaryStorage === undefined) {
      let cache = byDatabase.get(database);
      if (cache === undefined) {
        const feed = new RevocationFeed(d1RevocationReader(database), {
          withinMs: settings.revocationMs,
          ...(settings.clock ? { clock: settings.clock } : {}),
        });
        registerRevocationFeed(database, feed);
        cache = new RevocableCache(feed, settings);
        byDatabase.set(database, cache);
      }
      return cache;
    }
    if (!explicit) return null;
    withoutLog ??= new RevocableCache(null, settings);
    return withoutLog;
  };
  return (source) => {
    let cache = bySource.get(source);
    if (cache === undefined) {
      cache = decide(source);
      bySource.set(source, cache);
    }
    return cache;
  };
}

/** Copies a record into JSON-safe data: dates become ISO strings, functions and undefined drop out. */
function toJsonObject(record: object): { [field: string]: Json } {
  return JSON.parse(JSON.stringify(record)) as { [field: string]: Json };
}
