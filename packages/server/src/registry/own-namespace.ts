/**
 * The Durable Object namespace of the object `ctx` belongs to: `env[binding]`
 * when a binding name is given, else found among the worker's exports
 * (`ctx.exports`) as the namespace whose id for this object's name is this
 * object's id. Shards use it to reach their registry partition (another
 * object of their own class) without a binding the app must name.
 * `undefined` when the runtime gives no object name or no exports.
 *
 * Only namespaces are asked: the other exports are RPC stubs, on which every
 * property looks like a method, so they are told apart by their class.
 *
 * @example ownNamespace(ctx, env)?.getByName("\u0000svc/registry/03")
 */
export function ownNamespace(
  ctx: DurableObjectState,
  env: unknown,
  binding?: string,
): DurableObjectNamespace | undefined {
  if (binding !== undefined) {
    return (env as Record<string, DurableObjectNamespace | undefined> | undefined)?.[binding];
  }
  const name = ctx.id.name;
  if (name === undefined) return undefined;
  let exported: Record<string, unknown>;
  try {
    exported = (ctx.exports ?? {}) as unknown as Record<string, unknown>;
  } catch {
    return undefined;
  }
  for (const value of Object.values(exported)) {
    const className = (value as { constructor?: { name?: unknown } } | null)?.constructor?.name;
    if (typeof className !== "string" || !className.endsWith("DurableObjectNamespace")) continue;
    const namespace = value as DurableObjectNamespace;
    if (namespace.idFromName(name).equals(ctx.id)) return namespace;
  }
  return undefined;
}
