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
