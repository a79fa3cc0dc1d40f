import { DurableObject } from "cloudflare:workers";
import { type AlgorithmState, decide } from "../algorithms/decide.ts";
import type { RateLimitResult } from "../algorithms/result.ts";
import type { LimitRequest } from "./protocol.ts";

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
 * The Durable Object that holds rate-limit counts: one instance per (rate
 * name, key), SQLite-backed. Counting is exact because one object sees every
 * call for its key, one at a time, and each decision reads and writes its state
 * synchronously with no `await` in between. State is written to storage on
 * every counted call, so it survives eviction; an alarm drops it once the key
 * is back to full, so idle keys cost no storage.
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
  /** `undefined` until read from storage; `null` when the key has no state. */
  #stored: StoredKey | null | undefined;

  #load(): StoredKey | null {
    this.#stored ??= this.ctx.storage.kv.get<StoredKey>(STATE) ?? null;
    return this.#stored;
  }

  /** Decides one call for this object's key. Called by the limiter over RPC. */
  async limit(request: LimitRequest): Promise<RateLimitResult> {
    const stored = this.#load();
    const clock = Math.floor(request.now ?? Date.now());
    const now = stored ? Math.max(clock, stored.at) : clock;
    const { result, next } = decide(stored?.algorithm, request.rate, request.count, now);
    if (!result.ok) return result;

    const record: StoredKey = { algorithm: next, at: now, idleAt: Date.now() + result.resetAfter };
    this.ctx.storage.kv.put(STATE, record);
    this.#stored = record;
    // One alarm per stretch of activity: the alarm re-arms itself while the
    // key is busy, so a busy key does not pay an alarm write per call.
    if (!stored) await this.ctx.storage.setAlarm(record.idleAt);
    return result;
  }

  /** Drops the key's state once it is back to full, or waits for that moment. */
  override async alarm(): Promise<void> {
    const stored = this.#load();
    if (!stored) return;
    if (Date.now() < stored.idleAt) return this.ctx.storage.setAlarm(stored.idleAt);
    this.#stored = null;
    await this.ctx.storage.deleteAll();
  }
}
