import type { RevocationEvent, RevocationFeed } from "./revocation-feed.ts";

/**
 * What a cached value answers to: the log rows that revoke it (`[kind, id]`
 * pairs, e.g. `["session", sessionId]` and `["user", userId]`) and the
 * moment it expires on its own (ms since the epoch), if any.
 *
 * @example
 * ```ts
 * const tags: CacheTags = { revokedBy: [["session", "s1"], ["user", "u1"]], expiresAt: Date.parse(session.expiresAt) };
 * ```
 */
export interface CacheTags {
  revokedBy: readonly (readonly [string, string])[];
  expiresAt?: number;
}

/**
 * Options of a {@link RevocableCache}.
 *
 * @example
 * ```ts
 * const options: RevocableCacheOptions = { ttlMs: 60_000, maxEntries: 5_000 };
 * ```
 */
export interface RevocableCacheOptions {
  /**
   * Longest a value is kept (ms), whatever the log says. Each value is kept
   * for a random time between three quarters of it and all of it: values
   * loaded together (every caller of a fresh isolate) then do not all
   * expire together, so their reloads do not come as one burst of source
   * reads that stalls the requests behind it.
   */
  ttlMs: number;
  /** Most values kept; the least recently used go first. */
  maxEntries: number;
  /** Milliseconds since the epoch; tests pass a manual clock. @default Date.now */
  clock?: () => number;
}

interface Entry<Value> {
  value: Value;
  until: number;
  revokedBy: readonly (readonly [string, string])[];
}

/**
 * A per-isolate cache of credential lookups (a session, an API key) that a
 * {@link RevocationFeed} keeps honest: a value is served only while the feed
 * is fresh, evicted when the log names it, and never cached when a row
 * naming it arrived while it was being read. Without a feed (a database
 * with no log, by explicit choice) it is a plain time-bounded cache.
 * Nothing is cached for a lookup that found nothing.
 *
 * @example
 * ```ts
 * const cache = new RevocableCache<Identity>(feed, { ttlMs: 60_000, maxEntries: 5_000 });
 * const identity = await cache.get(cookie, () => lookUp(cookie), (found) => ({ revokedBy: [["session", found.sessionId]] }));
 * ```
 */
export class RevocableCache<Value> {
  readonly #feed: RevocationFeed | null;
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #clock: () => number;
  readonly #entries = new Map<string, Entry<Value>>();

  constructor(feed: RevocationFeed | null, options: RevocableCacheOptions) {
    const { ttlMs, maxEntries, clock = Date.now } = options;
    if (!(Number.isFinite(ttlMs) && ttlMs > 0))
      throw new TypeError("cache.ttlMs must be a positive number of milliseconds");
    if (!(Number.isInteger(maxEntries) && maxEntries > 0))
      throw new TypeError("cache.maxEntries must be a positive integer");
    this.#feed = feed;
    this.#ttlMs = ttlMs;
    this.#maxEntries = maxEntries;
    this.#clock = clock;
    feed?.subscribe((event) => this.#evict(event));
  }

  /**
   * The value of `key`: from the cache when it is there, unexpired and the
   * feed is fresh; otherwise from `load` (kept when `tags` allow).
   */
  async get(
    key: string,
    load: () => Promise<Value | null>,
    tags: (value: Value) => CacheTags,
  ): Promise<Value | null> {
    const feed = this.#feed;
    if (feed !== null && !(await feed.fresh())) return load();
    const now = this.#clock();
    const hit = this.#entries.get(key);
    if (hit !== undefined) {
      this.#entries.delete(key);
      if (hit.until > now) {
        this.#entries.set(key, hit);
        return hit.value;
      }
    }
    const mark = feed?.mark();
    const value = await load();
    if (value === null) return null;
    const { revokedBy, expiresAt = Number.POSITIVE_INFINITY } = tags(value);
    if (feed && mark && feed.revokedSince(mark, revokedBy)) return value;
    const keptFor = this.#ttlMs * (1 - Math.random() / 4);
    const until = Math.min(now + keptFor, Number.isNaN(expiresAt) ? now : expiresAt);
    if (until <= now) return value;
    this.#entries.set(key, { value, until, revokedBy });
    if (this.#entries.size > this.#maxEntries)
      this.#entries.delete(this.#entries.keys().next().value as string);
    return value;
  }

  /** How many values are kept now (for tests and metrics). */
  get size(): number {
    return this.#entries.size;
  }

  #evict(event: RevocationEvent): void {
    if (event === "all") {
      this.#entries.clear();
      return;
    }
    const revoked = new Set(event.map((row) => `${row.kind}\n${row.id}`));
    for (const [key, entry] of this.#entries) {
      if (entry.revokedBy.some(([kind, id]) => revoked.has(`${kind}\n${id}`)))
        this.#entries.delete(key);
    }
  }
}
