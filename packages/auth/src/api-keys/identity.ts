import type { ApiKeyCaller, Identity, IdentityResolver } from "@svc/server";
import { SvcError } from "@svc/server";
import type { BetterAuthDBSchema, BetterAuthOptions } from "better-auth";
import { SqlNames } from "../admin/sql-names.ts";
import { TtlCache } from "../cache/ttl-cache.ts";
import { isD1Like } from "../database.ts";
import { hashApiKey, isApiKeyShaped, presentedApiKey } from "./key-material.ts";
import { type ApiKeyDatabase, type ApiKeyLookup, lookupApiKey, touchApiKey } from "./store.ts";

/** The part of an auth instance API keys need: its D1 database and schema names. */
export interface ApiKeySource {
  $context: PromiseLike<{ options: BetterAuthOptions; tables: BetterAuthDBSchema }>;
}

/**
 * Options of {@link apiKeyIdentity}.
 *
 * @example
 * ```ts
 * apiKeyIdentity(auth, { otherwise: sessionIdentity(auth), cache: { ttlMs: 1_000 } });
 * ```
 */
export interface ApiKeyIdentityOptions<Env> {
  /** Resolves requests that present no API key (a session cookie or bearer token). @default anonymous */
  otherwise?: IdentityResolver<Env>;
  /**
   * Each isolate keeps a key's row for `ttlMs` after reading it, so a busy
   * key costs one D1 read per isolate per `ttlMs`; a key revoked elsewhere
   * stops working within `ttlMs` everywhere (at once in the isolate that
   * revoked it). Expiry is checked on every call, cached or not.
   * @default { ttlMs: 1000, maxEntries: 1000 }
   */
  cache?: { ttlMs?: number; maxEntries?: number; clock?: () => number };
  /** Least time between two writes of a key's `lastUsedAt` from one isolate. @default 60000 */
  lastUsedIntervalMs?: number;
}

const DEFAULT_TTL_MS = 1_000;
const DEFAULT_LAST_USED_INTERVAL_MS = 60_000;

/**
 * Each auth's shared key cache, keyed by its options object (the one thing
 * better-auth's per-request context copies share with `await auth.$context`):
 * the resolver fills it, and the admin API and the self-service endpoints of
 * the same isolate empty it when they revoke (the revocation signal; other
 * isolates follow within the cache's TTL).
 */
const caches = new WeakMap<object, TtlCache<ApiKeyLookup | null>>();

function cacheOf(
  authOptions: object,
  options: ApiKeyIdentityOptions<unknown>["cache"] = {},
): TtlCache<ApiKeyLookup | null> {
  let cache = caches.get(authOptions);
  if (cache === undefined) {
    cache = new TtlCache({ ttlMs: DEFAULT_TTL_MS, ...options });
    caches.set(authOptions, cache);
  }
  return cache;
}

/**
 * Forgets a revoked key in this isolate's cache at once (the other
 * isolates' entries expire within the cache's TTL).
 *
 * @example forgetApiKey((await auth.$context).options, "k1");
 */
export function forgetApiKey(authOptions: object, id: string): void {
  caches.get(authOptions)?.deleteWhere((found) => found?.record.id === id);
}

const unauthenticated = () =>
  new SvcError("UNAUTHENTICATED", "The API key is unknown, revoked or expired.", {
    headers: { "www-authenticate": 'Bearer realm="svc-api-key"' },
  });

/** The database of an auth and its options (the cache's key), resolved once. */
async function databaseOf(
  source: ApiKeySource,
): Promise<{ database: ApiKeyDatabase; authOptions: object }> {
  const context = await source.$context;
  const db = context.options.database;
  if (!isD1Like(db)) throw new Error("svc/auth: API keys need an auth on D1 (svcDatabaseAdapter)");
  return { database: { db, names: new SqlNames(context.tables) }, authOptions: context.options };
}

/**
 * The `resolveIdentity` for `createWorker` that accepts API keys: a request
 * presenting one (`x-api-key: svc_…`, or `Authorization: Bearer svc_…`) is
 * that key's call: `ctx.auth.kind === "apiKey"`, on behalf of its owner,
 * within its scopes. An unknown, revoked or expired key, or one whose owner
 * is gone or banned, is `401 UNAUTHENTICATED`, never anonymous. Every other
 * request goes to `otherwise` (usually `sessionIdentity(auth)`).
 *
 * Only the SHA-256 of each key is stored; the lookup is by that hash, so
 * no secret is ever compared. A key's row is cached per isolate (`cache`)
 * and its `lastUsedAt` written at most once a minute per isolate.
 *
 * @example
 * ```ts
 * createWorker({
 *   shardDO: "SHARD",
 *   functions,
 *   resolveIdentity: apiKeyIdentity(auth, { otherwise: sessionIdentity(auth) }),
 *   apiKeyRateLimit: createApiKeyRateLimit(limiter, { name: "apiKeys" }),
 * });
 * ```
 */
export function apiKeyIdentity<Env = unknown>(
  auth: ApiKeySource | ((env: Env) => ApiKeySource),
  options: ApiKeyIdentityOptions<Env> = {},
): IdentityResolver<Env> {
  const otherwise = options.otherwise ?? (() => null);
  const interval = options.lastUsedIntervalMs ?? DEFAULT_LAST_USED_INTERVAL_MS;
  const clock = options.cache?.clock ?? Date.now;
  const databases = new WeakMap<ApiKeySource, ReturnType<typeof databaseOf>>();
  const touched = new Map<string, number>();
  return async (request, env) => {
    const key = presentedApiKey(request);
    if (key === undefined) return otherwise(request, env);
    if (!isApiKeyShaped(key)) throw unauthenticated();
    const source = typeof auth === "function" ? auth(env) : auth;
    let resolved = databases.get(source);
    if (resolved === undefined) {
      resolved = databaseOf(source);
      databases.set(source, resolved);
      // A failure (the database not reachable yet) is not remembered: the next call retries.
      resolved.catch(() => databases.delete(source));
    }
    const { database, authOptions } = await resolved;
    const hash = await hashApiKey(key);
    const found = await cacheOf(authOptions, options.cache).getOrLoad(hash, () =>
      lookupApiKey(database, hash),
    );
    const now = clock();
    const record = found?.record;
    if (
      record === undefined ||
      !found?.ownerActive ||
      record.revokedAt !== null ||
      (record.expiresAt !== null && Date.parse(record.expiresAt) <= now)
    )
      throw unauthenticated();
    if (now - (touched.get(record.id) ?? 0) >= interval) {
      touched.set(record.id, now);
      if (touched.size > 10_000) touched.delete(touched.keys().next().value as string);
      await touchApiKey(database, record.id, new Date(now), new Date(now - interval));
    }
    const apiKey: ApiKeyCaller = {
      id: record.id,
      name: record.name,
      prefix: record.prefix,
      ownerUserId: record.ownerUserId,
      ownerOrganizationId: record.ownerOrganizationId,
      scopes: record.scopes,
    };
    return { userId: record.ownerUserId ?? `apiKey:${record.id}`, apiKey } satisfies Identity;
  };
}
