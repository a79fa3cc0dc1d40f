import { DurableObject } from "cloudflare:workers";
import { type AlgorithmState, decide } from "../algorithms/decide.ts";
import { charge, covers, reserveUnits } from "../algorithms/reserve.ts";
import type { RateLimitResult } from "../algorithms/result.ts";
import type { Rate } from "../rates.ts";
import type { LeaseReply, LeaseRequest, LimitBatch, StoreReply } from "./protocol.ts";

/** What one key's object keeps in storage. */
interface StoredKey {
  algorithm: AlgorithmState;
  /** The latest clock reading counted; time never runs backwards for a key. */
  at: number;
  /** Wall-clock time (ms) from which the key is back to full, so its state can be dropped. */
  idleAt: number;
}

const STATE = "state";

/**
 * How long (ms) a key's state outlives the moment it is back to full. Without
 * it, a generous rate hit steadily (every call leaves the key full again
 * within microseconds) armed an alarm, dropped the state and re-created it on
 * every call: ~2.7 ms of CPU per call instead of ~0.3 ms (measured in
 * `npm run bench`, gates). One second keeps that churn to once per second
 * per key at most, and idle keys still go away.
 *
 * @example
 * ```ts
 * await scheduler.wait(Math.max(resetAfter, STATE_LINGER_MS) + 5); // state is gone after the alarm
 * ```
 */
export const STATE_LINGER_MS = 1_000;

/** Why this object cannot keep state, or null when it has SQLite storage as it needs. */
function sqliteProblem(storage: DurableObjectStorage): string | null {
  try {
    // Throws at once for a class declared without SQLite; `storage.kv` would only fail on use.
    void storage.sql.databaseSize;
    return null;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return `RateLimitStore needs SQLite storage: declare it under new_sqlite_classes (not new_classes) in the migrations of wrangler.jsonc (${reason})`;
  }
}

/**
 * The Durable Object that holds rate-limit counts: one instance per (rate
 * name, key), SQLite-backed. Counting is exact because one object sees every
 * call for its key, one at a time, and each decision reads and writes its state
 * synchronously with no `await` in between. Calls of one key that an isolate
 * coalesced arrive as one batch, decided in order in one go. Storage is
 * written ahead: a write stores the state with 1 % of the limit (none
 * under a limit of 100) already spent, and the decisions
 * it covers are answered from memory without another write, so a hot key
 * pays one write per that many units instead of one per call; after a
 * restart those units count as spent (never admitting more than the limit;
 * see `reserveUnits`).
 * An alarm drops the state once the key is back to full (and
 * {@link STATE_LINGER_MS} has passed), so idle keys cost no storage.
 *
 * Export it from the worker's main module and bind it with SQLite storage.
 *
 * @example
 * ```ts
 * // src/index.ts
 * export { RateLimitStore } from "@svc/ratelimit";
 * // wrangler.jsonc
 * // "durable_objects": { "bindings": [{ "name": "RATE_LIMIT", "class_name": "RateLimitStore" }] },
 * // "migrations": [{ "tag": "v1", "new_sqlite_classes": ["RateLimitStore"] }]
 * ```
 */
export class RateLimitStore extends DurableObject {
  readonly #problem = sqliteProblem(this.ctx.storage);
  /**
   * The key's live state: read from storage once, then kept here. Safe
   * because one object runs one call at a time. `undefined` until read;
   * `null` when the key has no state.
   */
  #stored: StoredKey | null | undefined;
  /**
   * What storage holds: the live state as of the last write, charged ahead
   * by {@link reserveUnits} (see {@link #save}), so it never counts less
   * than the live state while decisions are answered from memory.
   */
  #durable: StoredKey | null = null;

  #load(): StoredKey | null {
    if (this.#stored === undefined) {
      // After a restart the live state is what was written: the units charged ahead count as spent.
      this.#stored = this.ctx.storage.kv.get<StoredKey>(STATE) ?? null;
      this.#durable = this.#stored;
    }
    return this.#stored;
  }

  /**
   * Decides a batch of calls for this object's key, in order, as if they had
   * come one by one, and writes the key's state once for all of them. Called
   * by the limiter over RPC.
   */
  async limit(batch: LimitBatch): Promise<StoreReply> {
    if (this.#problem) return { misconfigured: this.#problem };
    const before = this.#load();
    const results = batch.decisions.map(({ count, now }) => this.#spend(batch.rate, count, now));
    await this.#save(batch.rate, before);
    return { results };
  }

  /**
   * Grants a lease for the leased mode: `units` if they fit, else as many as
   * fit when that is at least `minimum`, else nothing (and the decision for
   * `minimum`, whose `retryAfter` the caller needs). Granted units are spent
   * here, exactly as calls would be: the limit can never be exceeded.
   */
  async lease(request: LeaseRequest): Promise<LeaseReply> {
    if (this.#problem) return { misconfigured: this.#problem };
    const { rate, units, minimum, now } = request;
    const before = this.#load();
    const available = this.#peek(rate, now);
    const wanted = Math.min(units, Math.max(available, minimum));
    // When fewer than `minimum` fit, `wanted` is `minimum`: the refusal is the call's own.
    const result = this.#spend(rate, wanted, now);
    await this.#save(rate, before);
    return { granted: result.ok ? wanted : 0, result };
  }

  /** The key's clock for a call: the reading, never earlier than one already counted. */
  #clock(at: number | undefined): number {
    const clock = Math.floor(at ?? Date.now());
    return this.#stored ? Math.max(clock, this.#stored.at) : clock;
  }

  /** Units the key could spend now, without spending them. */
  #peek(rate: Rate, at: number | undefined): number {
    const probe = decide(this.#stored?.algorithm, rate, 1, this.#clock(at)).result;
    return probe.ok ? probe.remaining + 1 : probe.remaining;
  }

  /**
   * Spends `count` units in memory if they fit; the decision either way.
   * `#save` writes what was spent, once per store call.
   */
  #spend(rate: Rate, count: number, at: number | undefined): RateLimitResult {
    const now = this.#clock(at);
    const { result, next } = decide(this.#stored?.algorithm, rate, count, now);
    if (!result.ok) return result;
    const idleAt = Date.now() + Math.max(result.resetAfter, STATE_LINGER_MS);
    this.#stored = { algorithm: next, at: now, idleAt };
    return result;
  }

  /**
   * Makes what this call spent durable before its answers leave (the
   * runtime holds replies until the write is confirmed). A write is needed
   * only once the live state counts more than storage holds: it then stores
   * the live state charged with {@link reserveUnits} more units, so the next
   * decisions, up to that many units, are answered with no write at all.
   * Storage never counts less than was admitted, so a restart can only
   * refuse more, never admit more; a new key also arms its cleanup alarm.
   */
  async #save(rate: Rate, before: StoredKey | null): Promise<void> {
    const stored = this.#stored;
    if (!stored || stored === before) return;
    if (covers(this.#durable?.algorithm, stored.algorithm, rate, stored.at)) return;
    const ahead = charge(stored.algorithm, rate, reserveUnits(rate), stored.at);
    // Full again later than the live state: its alarm must not drop the charge early after a restart.
    const untilFull = decide(ahead, rate, 1, stored.at).result.resetAfter;
    const durable: StoredKey = {
      algorithm: ahead,
      at: stored.at,
      idleAt: Math.max(stored.idleAt, Date.now() + Math.max(untilFull, STATE_LINGER_MS)),
    };
    this.ctx.storage.kv.put(STATE, durable);
    this.#durable = durable;
    // One alarm per stretch of activity: the alarm re-arms itself while the
    // key is busy, so a busy key does not pay an alarm write per call.
    if (!before) await this.ctx.storage.setAlarm(stored.idleAt);
  }

  /** Drops the key's state once it is back to full, or waits for that moment. */
  override async alarm(): Promise<void> {
    // Without SQLite no state was ever stored, so there is nothing to drop.
    const stored = this.#problem ? null : this.#load();
    if (!stored) return;
    if (Date.now() < stored.idleAt) return this.ctx.storage.setAlarm(stored.idleAt);
    this.#stored = null;
    this.#durable = null;
    await this.ctx.storage.deleteAll();
  }
}
