import { validationFailed } from "../errors/validation-failed.ts";
import { endpointStub } from "../model/endpoint-stub.ts";
import { checkShardKey } from "../model/shard-key.ts";
import type { ShardDataEndpoint } from "../registry/data-endpoint.ts";
import { findShard } from "../registry/reader.ts";
import { notFound } from "./not-found.ts";
import type { DataContext } from "./options.ts";

/**
 * The shard key of a route's path, checked as every door checks keys:
 * control characters are refused (`BAD_REQUEST`), so svc's own objects,
 * whose names start with NUL, cannot be named.
 */
export function pathKey(params: { key: string }): string {
  return checkShardKey(params.key);
}

/** The data methods of shard `key`. */
export function shardOf(ctx: DataContext, key: string): ShardDataEndpoint {
  return endpointStub<ShardDataEndpoint>(ctx.deps.namespace(ctx.env), key);
}

/** Fails with `NOT_FOUND` unless the registry knows shard `key` (never touches the shard itself). */
export async function requireKnownShard(ctx: DataContext, key: string): Promise<void> {
  if ((await findShard(ctx.deps.namespace(ctx.env), key)) === null) throw notFound();
}

/** A typed confirmation that does not repeat the key: `VALIDATION_FAILED` on `path`. */
export function refuseUnconfirmed(path: string, confirm: string, key: string, what: string): void {
  if (confirm === key) return;
  throw validationFailed(
    [
      {
        path,
        message: `must repeat the shard key exactly, to confirm that its data is to be ${what}`,
      },
    ],
    "Invalid request: ",
  );
}
