/**
 * Options of {@link TtlCache}.
 *
 * @example
 * ```ts
 * new TtlCache<Row | null>({ ttlMs: 1_000, maxEntries: 10_000 });
 * ```
 */
export interface TtlCacheOptions {
  /** How long a loaded value is served before it is loaded again. */
  ttlMs: number;
  /** Most entries kept; the least recently loaded go first. @default 1000 */
  maxEntries?: number;
  /** Milliseconds since the epoch; tests pass a manual clock. @default Date.now */
  clock?: () => number;
}

interface Entry<V> {
  value: V;
  until: number;
}

/**
 * A per-isolate cache of credential lookups (an API key's row; a session,
 * issue 32): each value is served for at most `ttlMs` after it was loaded,
 * so a revocation elsewhere takes effect within `ttlMs` in every isolate,
 * and at once in the isolate that revoked (`delete` / `deleteWhere`, the
 * revocation signal). Concurrent misses of one key share one load, so a
 * burst of calls with a new credential costs one database read. Bounded:
 * past `maxEntries` the oldest entries go.
 *
 * @example
 * ```ts
 * const rows = new TtlCache<ApiKeyRow | null>({ ttlMs: 1_000 });
 * const row = await rows.getOrLoad(hash, () => findByHash(db, hash));
 * rows.deleteWhere((row) => row?.id === revokedId); // this isolate forgets it now
 * ```
 */
export class TtlCache<V> {
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #clock: () => number;
  readonly #entries = new Map<string, Entry<V>>();
  readonly #loading = new Map<string, Promise<V>>();
  /** Bumped by every deletion: a load that began before one may hold what it deleted. */
  #generation = 0;

  constructor(options: TtlCacheOptions) {
    const { ttlMs, maxEntries = 1_000, clock = Date.now } = options;
    if (!(Number.isFinite(ttlMs) && ttlMs > 0))
      throw new TypeError("cache ttlMs must be a positive number of milliseconds");
    if (!(Number.isInteger(maxEntries) && maxEntries > 0))
      throw new TypeError("cache maxEntries must be a positive integer");
    this.#ttlMs = ttlMs;
    this.#maxEntries = maxEntries;
    this.#clock = clock;
  }

  /** The value of `key` while it is fresh, else `undefined`. */
  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.until > this.#clock()) return entry.value;
    this.#entries.delete(key);
    return undefined;
  }

  /**
   * The fresh value of `key`, or `load()`'s, kept for `ttlMs` (a load that
   * fails is not kept, and its callers all see the failure; a load that a
   * deletion overtook is answered but not kept).
   */
  getOrLoad(key: string, load: () => Promise<V>): Promise<V> {
    const entry = this.#entries.get(key);
    if (entry !== undefined && entry.until > this.#clock()) return Promise.resolve(entry.value);
    const pending = this.#loading.get(key);
    if (pending !== undefined) return pending;
    const generation = this.#generation;
    const loading = load()
      .then((value) => {
        if (generation === this.#generation) this.#set(key, value);
        return value;
      })
      .finally(() => this.#loading.delete(key));
    this.#loading.set(key, loading);
    return loading;
  }

  /** Forgets `key` (e.g. the credential was revoked in this isolate). */
  delete(key: string): void {
    this.#generation++;
    this.#entries.delete(key);
  }

  /** Forgets every entry whose value matches: a revocation by a property other than the key. */
  deleteWhere(matches: (value: V) => boolean): void {
    this.#generation++;
    for (const [key, entry] of this.#entries) if (matches(entry.value)) this.#entries.delete(key);
  }

  #set(key: string, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, { value, until: this.#clock() + this.#ttlMs });
    if (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
  }
}
