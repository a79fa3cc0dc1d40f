/**
 * How many objects hold the shard registry. Each shard's row lives in one of
 * them, chosen by a hash of its key, so registry writes spread over all of
 * them and a listing asks each once per page. Changing it moves every key to
 * another partition: it is fixed for the life of an app.
 *
 * @see ../../../../docs/scaling.md
 */
export const REGISTRY_PARTITIONS = 16;

/**
 * Names of svc's own objects in the shard namespace begin with a NUL
 * character: a shard key never contains control characters (the worker
 * refuses them with `BAD_REQUEST` on every door), so no client, procedure or
 * admin route can reach one by naming it.
 */
const RESERVED_NAME_PREFIX = "\u0000svc/";

/**
 * The object name of registry partition `index` (0 to {@link REGISTRY_PARTITIONS} − 1).
 *
 * @example registryPartitionName(3) // "\u0000svc/registry/03"
 */
export function registryPartitionName(index: number): string {
  return `${RESERVED_NAME_PREFIX}registry/${String(index).padStart(2, "0")}`;
}

/** Every partition name, in partition order. */
export function registryPartitionNames(): string[] {
  return Array.from({ length: REGISTRY_PARTITIONS }, (_, index) => registryPartitionName(index));
}

/**
 * The partition holding `shardKey`'s row: FNV-1a (32 bits) of its UTF-8
 * bytes, modulo {@link REGISTRY_PARTITIONS}. Cheap, synchronous and the same
 * in every isolate, so the shard writing its row and the worker reading it
 * agree without asking anyone.
 *
 * @example registryPartitionOf("room-42") // an integer from 0 to 15
 */
export function registryPartitionOf(shardKey: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(shardKey)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % REGISTRY_PARTITIONS;
}

/**
 * True for the names of svc's own objects (registry partitions), which are
 * not shards: they hold no app tables and never report themselves.
 */
export function isReservedObjectName(name: string | undefined): boolean {
  return name?.startsWith(RESERVED_NAME_PREFIX) === true;
}
