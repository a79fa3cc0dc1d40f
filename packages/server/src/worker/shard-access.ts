import type { Identity } from "../model/identity.ts";

/** What a {@link ShardAccessHook} decides from: who calls which procedure in which shard. */
export interface ShardAccess<Env = unknown> {
  /** The caller as `resolveIdentity` saw it; `null` for anonymous. */
  identity: Identity | null;
  /** The shard key the request named (`default` when it named none). */
  shardKey: string;
  /** The procedure path, e.g. `messages:list`; `*` for a subscription socket (any public query). */
  path: string;
  transport: "rpc" | "rest" | "ws";
  request: Request;
  env: Env;
}

/**
 * Decides whether a caller may reach a shard, before its Durable Object is
 * touched (so a refused key never creates a database). `false` answers exactly
 * what an unknown procedure answers, so refused keys cannot be told from
 * missing routes.
 *
 * Why it exists: shard keys come from the caller. Without this hook anyone,
 * anonymous included, can name any key and so create any number of persistent
 * shard databases. Shards are a unit of scale, not a tenant boundary, until
 * this hook makes them one.
 *
 * @example
 * ```ts
 * createWorker({
 *   shardDO: "SHARD",
 *   functions,
 *   // Each user may use the shared shard and their own `user:<id>` shard only.
 *   shardAccess: ({ identity, shardKey }) =>
 *     shardKey === "default" || shardKey === `user:${identity?.userId}`,
 * });
 * ```
 */
export type ShardAccessHook<Env = unknown> = (
  access: ShardAccess<Env>,
) => boolean | Promise<boolean>;

/**
 * The default {@link ShardAccessHook}: every caller may use every shard.
 * Admission recognizes it and skips the call and the facts it would be
 * handed, which every call without a hook paid for.
 *
 * @example createWorker({ shardDO: "SHARD", functions }); // shardAccess: EVERY_SHARD
 */
export const EVERY_SHARD: ShardAccessHook = () => true;
