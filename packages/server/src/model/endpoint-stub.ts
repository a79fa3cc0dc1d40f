/**
 * The ids of named objects already asked for, by namespace: `idFromName`
 * derives an id from its name with a keyed hash on every call, the same
 * answer each time, while a `DurableObjectId` stays valid for the isolate's
 * life (unlike a stub, which belongs to the request that made it). A
 * namespace binding is one object for the isolate's life, so it keys this.
 */
const idsByNamespace = new WeakMap<DurableObjectNamespace, Map<string, DurableObjectId>>();

/**
 * Names kept per namespace. Shard keys may be one per user: past this many
 * the map starts again, so its memory stays bounded whatever the traffic.
 */
const MAX_KEPT_IDS = 1024;

/** `namespace`'s id for `name`, derived once and then kept (see {@link idsByNamespace}). */
function idOf(namespace: DurableObjectNamespace, name: string): DurableObjectId {
  let ids = idsByNamespace.get(namespace);
  if (ids === undefined) {
    ids = new Map();
    idsByNamespace.set(namespace, ids);
  }
  let id = ids.get(name);
  if (id === undefined) {
    id = namespace.idFromName(name);
    if (ids.size >= MAX_KEPT_IDS) ids.clear();
    ids.set(name, id);
  }
  return id;
}

/**
 * The stub of the Durable Object named `name` in `namespace`, typed as the
 * RPC endpoint the caller talks to (`ShardEndpoint`, `RegistryEndpoint`,
 * `LogStoreEndpoint`, …). Workers' own `DurableObjectStub<T>` wants the
 * object's class, which the worker side must not import (it would bundle the
 * shard into every caller); svc's endpoints are interfaces the objects
 * implement, so this one place makes the cast every caller needs.
 *
 * @example
 * ```ts
 * const shard = endpointStub<ShardDataEndpoint>(env.SHARD, "default");
 * await shard.exportBackup(target);
 * ```
 */
export function endpointStub<Endpoint>(namespace: DurableObjectNamespace, name: string): Endpoint {
  return namespace.getByName(name) as unknown as Endpoint;
}

/**
 * {@link endpointStub} for a namespace called on every request (the
 * worker's shards): the same object as `getByName(name)` (its `ctx.id.name`
 * is `name`), reached from an id derived once per name instead of on every
 * call: in the REST read's profile (BENCHMARKS.md section 1a) `get` of a
 * kept id costs 7.1 µs a request against the hand-written route's 10.8 µs
 * of `getByName`; 0.7 against 1.7 µs in a tight workerd loop.
 *
 * @example
 * ```ts
 * const shard = keptIdStub<ShardEndpoint>(env.SHARD, shardKey);
 * const result = await shard.call(call);
 * ```
 */
export function keptIdStub<Endpoint>(namespace: DurableObjectNamespace, name: string): Endpoint {
  return namespace.get(idOf(namespace, name)) as unknown as Endpoint;
}
