import { readMeta, writeMeta } from "../durable/meta.ts";

/** The `_svc_meta` key under which a shard keeps an app key that is not its name. */
const META_KEY = "app_shard_key";

/**
 * The key the app names a shard by: what its scheduled jobs see as
 * `ctx.meta.shardKey`, and the key a job's `options.shardKey` is compared
 * with to tell its own shard from another. In production it is the object's
 * name (the worker names each shard object by its key, and every call
 * carries the same key). `@svc/testing` names objects under a prefix of its
 * own (`test-<uuid>/default`) and calls them with the app's key, so the key
 * is taken from the calls: one naming another key than the name sets it, and
 * it is kept in `_svc_meta` so a job run after an eviction sees it too.
 * Production never writes it.
 *
 * @example
 * ```ts
 * const appKey = new AppShardKey(ctx.storage.sql, ctx.id.name ?? ctx.id.toString());
 * appKey.note(call.shardKey); // on each call
 * createScheduler(deps, { ...origin, shardKey: appKey.value });
 * ```
 */
export class AppShardKey {
  readonly #sql: SqlStorage;
  readonly #name: string;
  #key: string | undefined;

  constructor(sql: SqlStorage, name: string) {
    this.#sql = sql;
    this.#name = name;
  }

  /** The app's key of this shard. */
  get value(): string {
    this.#key ??= readMeta(this.#sql, META_KEY) ?? this.#name;
    return this.#key;
  }

  /** Told the key of each call the worker (or a test harness) sends. */
  note(key: string): void {
    if (key === this.value) return;
    this.#key = key;
    writeMeta(this.#sql, META_KEY, key);
  }
}
