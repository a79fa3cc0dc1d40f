import { SvcError } from "../errors/svc-error.ts";
import { endpointStub } from "../model/endpoint-stub.ts";
import type { RegistryEndpoint } from "./data-endpoint.ts";
import type { ShardEntry } from "./directory.ts";
import {
  registryPartitionName,
  registryPartitionNames,
  registryPartitionOf,
} from "./partitions.ts";

/** A page of the registry. */
export interface ShardPage {
  shards: ShardEntry[];
  /** Pass as `cursor` for the next page; `null` on the last one. */
  nextCursor: string | null;
}

/** The registry partition that holds `shardKey`'s row. */
export function partitionOfShard(
  namespace: DurableObjectNamespace,
  shardKey: string,
): RegistryEndpoint {
  return endpointStub<RegistryEndpoint>(
    namespace,
    registryPartitionName(registryPartitionOf(shardKey)),
  );
}

/** One shard's row, or `null` when the registry does not know it (one partition read). */
export function findShard(
  namespace: DurableObjectNamespace,
  shardKey: string,
): Promise<ShardEntry | null> {
  return partitionOfShard(namespace, shardKey).registryGet(shardKey);
}

/**
 * A page of shards in key order (UTF-8 byte order), optionally only keys
 * containing `search`. Every partition is asked in parallel for up to
 * `limit` keys after the cursor; the answers are merged and cut at `limit`,
 * so a page costs one read of each partition and the order is global. The
 * cursor is the last key of the page, encoded.
 */
export async function listShards(
  namespace: DurableObjectNamespace,
  options: { search: string | null; cursor: string | null; limit: number },
): Promise<ShardPage> {
  const after = options.cursor === null ? "" : decodeCursor(options.cursor);
  const pages = await Promise.all(
    registryPartitionNames().map((name) =>
      endpointStub<RegistryEndpoint>(namespace, name).registryList({
        after,
        search: options.search,
        limit: options.limit,
      }),
    ),
  );
  const merged = pages.flatMap((page) => page.entries).sort((a, b) => compareKeys(a.key, b.key));
  const shards = merged.slice(0, options.limit);
  const more = merged.length > options.limit || pages.some((page) => page.more);
  return {
    shards,
    nextCursor: more && shards.length > 0 ? encodeCursor(shards.at(-1)!.key) : null,
  };
}

/** Code point order, which is the UTF-8 byte order SQLite sorts `TEXT` keys in. */
export function compareKeys(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(j)!;
    if (x !== y) return x - y;
    i += x > 0xffff ? 2 : 1;
    j += y > 0xffff ? 2 : 1;
  }
  return a.length - i - (b.length - j);
}

function encodeCursor(key: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(key)) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function decodeCursor(cursor: string): string {
  try {
    const binary = atob(cursor.replaceAll("-", "+").replaceAll("_", "/"));
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new SvcError("BAD_REQUEST", "The cursor is not one this list answered.");
  }
}
