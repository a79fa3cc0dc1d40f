/** Requests that reached this isolate; see {@link noteIsolateRequest}. */
let taken = 0;

/**
 * Counts one request reaching this isolate: a request to the worker, or a
 * call, stream or socket message to a shard. A running migration reads the
 * count between batches: everything that reaches the isolate waits for the
 * migration loop's next yield, not only calls to the migrating shard.
 * Where a worker and its shards share an isolate (always under `wrangler
 * dev` and Miniflare), a request the worker answers alone (a 404, a static
 * file, an auth route) is as much a reason for small batches as a shard
 * call; so is a call to a sibling shard the isolate also hosts.
 *
 * @example
 * ```ts
 * fetch(request, env, ctx) { noteIsolateRequest(); return serve(request, env, ctx); }
 * ```
 */
export function noteIsolateRequest(): void {
  taken++;
}

/**
 * How many requests reached this isolate so far: compare two
 * readings to tell whether any came in between.
 *
 * @example
 * ```ts
 * const before = isolateRequests(); await yieldToCalls(); const busy = isolateRequests() !== before;
 * ```
 */
export function isolateRequests(): number {
  return taken;
}
