import type { DatabaseWriter } from "../db/types.ts";
import type { StorageActionWriter } from "../storage/context.ts";

/**
 * The key of a shard instance's in-isolate door: `Symbol.for`, so a second
 * copy of this module in the isolate finds the same door. JS RPC carries
 * string-named methods only, so no stub (no worker, no client) can reach it:
 * only code running in the shard's own isolate that holds the instance, which
 * is what `@svc/testing`'s `t.run` does through `runInDurableObject`.
 */
export const SHARD_IN_ISOLATE: unique symbol = Symbol.for("svc.shard.inIsolate") as never;

/**
 * What a shard offers code of its own isolate: a privileged write, run as the
 * data studio's operator writes run (under the mutation lock, one
 * transaction, RLS off, schema validation on, live queries told on commit),
 * and the shard's files as an action's `ctx.storage` with RLS off (stores
 * record `uploader` as the given user).
 *
 * @example
 * ```ts
 * // inside runInDurableObject(stub, (shard) => ...)
 * const door = (shard as { [SHARD_IN_ISOLATE]: ShardInIsolate })[SHARD_IN_ISOLATE];
 * await door.write({ shardKey: "default", path: "test:run" }, (db) => db.insert("notes", { text: "hi" }));
 * ```
 */
export interface ShardInIsolate {
  write<T>(
    origin: { shardKey: string; path: string },
    work: (db: DatabaseWriter) => Promise<T>,
  ): Promise<T>;
  storage(uploader: string | null): StorageActionWriter;
}
