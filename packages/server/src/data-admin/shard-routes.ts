import { unwrap } from "../errors/outcome.ts";
import { findShard, listShards, partitionOfShard } from "../registry/reader.ts";
import type { RouteHandler } from "../routes/implement.ts";
import type { dataAdminRoutes } from "./contract.ts";
import { notFound } from "./not-found.ts";
import type { DataAuditRecord, DataContext } from "./options.ts";
import { pathKey, refuseUnconfirmed, requireKnownShard, shardOf } from "./shard-stub.ts";

type Routes = typeof dataAdminRoutes.routes;
type Handler<Name extends keyof Routes> = RouteHandler<Routes[Name], DataContext, DataAuditRecord>;

/** Page size of `GET shards` without `limit`. */
export const DEFAULT_SHARD_PAGE = 50;

/** `GET shards?search=&cursor=&limit=`: the registry, in key order. */
export const listShardsHandler: Handler<"listShards"> = async ({ query, ctx }) =>
  listShards(ctx.deps.namespace(ctx.env), {
    search: query.search ?? null,
    cursor: query.cursor ?? null,
    limit: query.limit ?? DEFAULT_SHARD_PAGE,
  });

/** `GET shards/:key`: one shard's registry row (never touches the shard itself). */
export const getShardHandler: Handler<"getShard"> = async ({ params, ctx }) => {
  const entry = await findShard(ctx.deps.namespace(ctx.env), pathKey(params));
  if (entry === null) throw notFound();
  return entry;
};

/**
 * `DELETE shards/:key?confirm=<key>`: deletes every document of the shard
 * and its registry row. The key must be typed again as `confirm`.
 */
export const deleteShardHandler: Handler<"deleteShard"> = async ({ params, query, ctx, audit }) => {
  const key = pathKey(params);
  refuseUnconfirmed("query.confirm", query.confirm, key, "deleted");
  await requireKnownShard(ctx, key);
  const { documents, deletedAt } = unwrap(await shardOf(ctx, key).deleteData());
  await partitionOfShard(ctx.deps.namespace(ctx.env), key).registryRemove(key, deletedAt);
  audit.detail = `${documents} documents deleted`;
  return { key, deleted: true as const, documents };
};
