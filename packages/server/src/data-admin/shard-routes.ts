import { SvcError } from "../errors/svc-error.ts";
import { v } from "../values/index.ts";
import { jsonResponse } from "../worker/responses.ts";
import { findShard, listShards, partitionOfShard } from "./registry-reader.ts";
import { type DataCall, dataRoute } from "./route.ts";
import { notFound, shardOf, unwrap } from "./shard-stub.ts";

/** Page size of `GET shards` without `limit`; the largest accepted is {@link MAX_SHARD_PAGE}. */
export const DEFAULT_SHARD_PAGE = 50;
/** Largest `limit` of `GET shards`. */
export const MAX_SHARD_PAGE = 200;
const MAX_SEARCH_LENGTH = 256;

function invalid(path: string, message: string): SvcError {
  return new SvcError("VALIDATION_FAILED", `${path}: ${message}`, { issues: [{ path, message }] });
}

/** Fails with `NOT_FOUND` unless the registry knows the call's shard. */
export async function requireKnownShard(call: DataCall<unknown, unknown>): Promise<void> {
  if ((await findShard(call.deps.namespace(call.env), call.key)) === null) throw notFound();
}

/** `GET shards?search=&cursor=&limit=`: the registry, in key order. */
export const listShardsRoute = dataRoute({
  method: "GET",
  path: "shards",
  query: v.object({
    search: v.optional(v.string()),
    cursor: v.optional(v.string()),
    limit: v.optional(v.number()),
  }),
  answers: "{ shards: ShardEntry[], nextCursor: string | null }",
  async handle(call) {
    const { search, cursor, limit = DEFAULT_SHARD_PAGE } = call.query;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SHARD_PAGE) {
      throw invalid("query.limit", `must be an integer from 1 to ${MAX_SHARD_PAGE}`);
    }
    if (search !== undefined && search.length > MAX_SEARCH_LENGTH) {
      throw invalid("query.search", `must be at most ${MAX_SEARCH_LENGTH} characters`);
    }
    const page = await listShards(call.deps.namespace(call.env), {
      search: search === undefined || search === "" ? null : search,
      cursor: cursor ?? null,
      limit,
    });
    return jsonResponse(page);
  },
});

/** `GET shards/:key`: one shard's registry row. */
export const getShardRoute = dataRoute({
  method: "GET",
  path: "shards/:key",
  answers: "ShardEntry",
  async handle(call) {
    const entry = await findShard(call.deps.namespace(call.env), call.key);
    if (entry === null) throw notFound();
    return jsonResponse(entry);
  },
});

/**
 * `DELETE shards/:key?confirm=<key>`: deletes every document of the shard
 * and its registry row. The key must be typed again as `confirm`.
 */
export const deleteShardRoute = dataRoute({
  method: "DELETE",
  path: "shards/:key",
  query: v.object({ confirm: v.string() }),
  audit: "shard.delete",
  answers: "{ key, deleted: true, documents }",
  async handle(call) {
    if (call.query.confirm !== call.key) {
      throw invalid(
        "query.confirm",
        "must repeat the shard key exactly, to confirm that its data is to be deleted",
      );
    }
    await requireKnownShard(call);
    const { documents, deletedAt } = unwrap(await shardOf(call).deleteData());
    await partitionOfShard(call.deps.namespace(call.env), call.key).registryRemove(
      call.key,
      deletedAt,
    );
    call.audit.detail = `${documents} documents deleted`;
    return jsonResponse({ key: call.key, deleted: true, documents });
  },
});
