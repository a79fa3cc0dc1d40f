import { waitUntil } from "cloudflare:workers";
import {
  REVOCATION_READ_LIMIT,
  type Revocation,
  type RevocationRead,
  type RevocationReader,
} from "./log-reader.ts";

/**
 * What a feed tells its listeners: these rows arrived (evict what they
 * name), or `all` (the feed cannot tell what it missed: evict everything).
 *
 * @example
 * ```ts
 * feed.subscribe((event) => (event === "all" ? cache.clear() : evict(event)));
 * ```
 */
export type RevocationEvent = readonly Revocation[] | "all";

/**
 * Where a feed stood when a caller started reading the truth (e.g. a
 * session from D1): compared later by {@link RevocationFeed.revokedSince}.
 *
 * @example
 * ```ts
 * const mark: FeedMark = feed.mark();
 * ```
 */
export interface FeedMark {
  readonly seq: number;
  readonly flushes: number;
}

/**
 * Options of a {@link RevocationFeed}.
 *
 * @example
 * ```ts
 * const options: RevocationFeedOptions = { withinMs: 500 };
 * ```
 */
export interface RevocationFeedOptions {
  /**
   * The bound on staleness: a cached value is trusted only while the latest
   * read of the log was sent less than `withinMs` ago, so a revocation
   * committed at time t is applied to every request from t + `withinMs` on.
   */
  withinMs: number;
  /** Milliseconds since the epoch; tests pass a manual clock. @default Date.now */
  clock?: () => number;
  /** After a failed read, how long (ms) to answer "not fresh" without retrying. @default 1000 */
  retryMs?: number;
}

/** How many recent rows a feed remembers for {@link RevocationFeed.revokedSince}. */
const RECENT = 1024;

/**
 * One isolate's view of a revocation log, kept fresh by polling it: at most
 * one read in flight, one every `withinMs / 2` while requests come (started
 * in the background, so requests rarely wait), none while idle. Per-isolate
 * caches of credentials (sessions, API keys) subscribe to it and evict what
 * each read names; they ask {@link fresh} before serving a cached value, so
 * a revocation anywhere bites everywhere within `withinMs`. The cost is one
 * small read per isolate per `withinMs / 2` instead of one per request.
 *
 * Reusable for any credential a log covers: the rows carry a kind and an id.
 *
 * @example
 * ```ts
 * const feed = new RevocationFeed(d1RevocationReader(env.DB), { withinMs: 500 });
 * feed.subscribe((event) => (event === "all" ? cache.clear() : cache.evict(event)));
 * if (await feed.fresh()) serveFromCache();
 * ```
 */
export class RevocationFeed {
  readonly #read: RevocationReader;
  readonly #withinMs: number;
  readonly #clock: () => number;
  readonly #retryMs: number;
  readonly #listeners = new Set<(event: RevocationEvent) => void>();
  /** The newest sequence number applied; `null` before the first read. */
  #cursor: number | null = null;
  /** When the newest applied read was sent. */
  #viewAt = Number.NEGATIVE_INFINITY;
  #failedAt = Number.NEGATIVE_INFINITY;
  #reported = false;
  #inFlight: { reading: Promise<boolean>; epoch: number } | null = null;
  /** Bumped by {@link expire}: a read sent before it cannot make the view fresh. */
  #epoch = 0;
  /** Times everything was evicted; a mark from before one is stale. */
  #flushes = 0;
  /** Recent rows, oldest first; complete for every sequence number above `#floor`. */
  #recent: Revocation[] = [];
  #floor = Number.POSITIVE_INFINITY;

  constructor(read: RevocationReader, options: RevocationFeedOptions) {
    const { withinMs, clock = Date.now, retryMs = 1_000 } = options;
    if (!(Number.isFinite(withinMs) && withinMs > 0))
      throw new TypeError("RevocationFeed: withinMs must be a positive number of milliseconds");
    this.#read = read;
    this.#withinMs = withinMs;
    this.#clock = clock;
    this.#retryMs = retryMs;
  }

  /** Calls `listener` with every event from now on; answers the unsubscribe. */
  subscribe(listener: (event: RevocationEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * True when cached values may be served: the view is younger than
   * `withinMs` (reading the log first if it is not). False when the log
   * cannot be read (then serve nothing from a cache: ask the source).
   */
  async fresh(): Promise<boolean> {
    // A read that lands while the view was expired does not count: try once more, then give up.
    for (let attempt = 0; attempt < 3; attempt++) {
      const now = this.#clock();
      const age = now - this.#viewAt;
      if (age < this.#withinMs) {
        if (age >= this.#withinMs / 2) this.#refresh();
        return true;
      }
      if (now - this.#failedAt < this.#retryMs) return false;
      if (!(await this.#refresh())) return false;
    }
    return false;
  }

  /**
   * Makes the view stale at once, so the next {@link fresh} reads the log:
   * called after this isolate served a write (a sign-out, an admin action),
   * so the writer's own next request already sees its effect.
   */
  expire(): void {
    this.#epoch += 1;
    this.#viewAt = Number.NEGATIVE_INFINITY;
  }

  /** Where the feed stands now; see {@link revokedSince}. */
  mark(): FeedMark {
    return { seq: this.#cursor ?? -1, flushes: this.#flushes };
  }

  /**
   * True when a row naming one of `ids` (`[kind, id]` pairs) arrived after
   * `mark`, or when the feed cannot tell (it dropped everything, or forgot
   * rows that old): a value read from the source while such a row arrived
   * must not be cached, its read may predate the change.
   */
  revokedSince(mark: FeedMark, ids: readonly (readonly [string, string])[]): boolean {
    if (mark.flushes !== this.#flushes || mark.seq < this.#floor) return true;
    return this.#recent.some(
      (row) => row.seq > mark.seq && ids.some(([kind, id]) => row.kind === kind && row.id === id),
    );
  }

  /** Starts a read unless one is in flight; settles true when it applied. */
  #refresh(): Promise<boolean> {
    const epoch = this.#epoch;
    if (this.#inFlight?.epoch === epoch) return this.#inFlight.reading;
    // One read at a time, so each applies after the one before it.
    const previous = this.#inFlight?.reading;
    const reading = (previous ? previous.then(() => this.#poll(epoch)) : this.#poll(epoch)).finally(
      () => {
        if (this.#inFlight?.reading === reading) this.#inFlight = null;
      },
    );
    this.#inFlight = { reading, epoch };
    // Kept alive past the request that started it: others may be waiting on it.
    waitUntil(reading);
    return reading;
  }

  async #poll(epoch: number): Promise<boolean> {
    const sentAt = this.#clock();
    let read: RevocationRead;
    try {
      read = await this.#read(this.#cursor);
    } catch (error) {
      this.#failedAt = this.#clock();
      if (!this.#reported) {
        this.#reported = true;
        console.error(
          "svc auth: the revocation log cannot be read; credentials are checked on every call until it can (run the auth migrations: svc_revocation)",
          error,
        );
      }
      return false;
    }
    this.#reported = false;
    this.#apply(read);
    if (epoch === this.#epoch) this.#viewAt = Math.max(this.#viewAt, sentAt);
    return true;
  }

  #apply({ oldest, newest, entries }: RevocationRead): void {
    const cursor = this.#cursor;
    const last = newest ?? 0;
    if (cursor === null) {
      // First read: nothing is cached yet, so there is nothing to evict.
      this.#cursor = last;
      this.#floor = last;
      return;
    }
    const missed =
      last < cursor ||
      (oldest !== null && oldest > cursor + 1) ||
      entries.length >= REVOCATION_READ_LIMIT;
    if (missed) {
      this.#cursor = last;
      this.#flushes += 1;
      this.#recent = [];
      this.#floor = last;
      this.#emit("all");
      return;
    }
    if (entries.length === 0) return;
    this.#cursor = entries[entries.length - 1]!.seq;
    this.#recent.push(...entries);
    if (this.#recent.length > RECENT) {
      const dropped = this.#recent.splice(0, this.#recent.length - RECENT);
      this.#floor = dropped[dropped.length - 1]!.seq;
    }
    this.#emit(entries);
  }

  #emit(event: RevocationEvent): void {
    for (const listener of this.#listeners) listener(event);
  }
}

/** The feeds of each database (its binding object), for {@link expireRevocationViews}. */
const feedsOf = new WeakMap<object, Set<RevocationFeed>>();

/**
 * Registers `feed` as a view of `database`'s log, so a write served by this
 * isolate can expire it ({@link expireRevocationViews}).
 *
 * @example
 * ```ts
 * registerRevocationFeed(env.DB, feed);
 * ```
 */
export function registerRevocationFeed(database: object, feed: RevocationFeed): void {
  const feeds = feedsOf.get(database) ?? new Set();
  feeds.add(feed);
  feedsOf.set(database, feeds);
}

/**
 * Expires every view this isolate has of `database`'s log: after a request
 * that may have revoked something (a sign-out, an admin action), the next
 * request reads the log before trusting a cache, so the same client sees its
 * own sign-out at once; other isolates see it within their bound.
 *
 * @example
 * ```ts
 * if (request.method !== "GET") expireRevocationViews(auth.options.database);
 * ```
 */
export function expireRevocationViews(database: unknown): void {
  if (typeof database !== "object" || database === null) return;
  for (const feed of feedsOf.get(database) ?? []) feed.expire();
}
