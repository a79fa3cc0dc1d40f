/** Requests the worker took in this isolate; see {@link noteIsolateRequest}. */
let taken = 0;

/**
 * Counts one request the worker takes. A running migration reads the count
 * between batches: where a worker and its shards share an isolate (always
 * under `wrangler dev` and Miniflare), every request to the app waits for
 * the migration loop's next yield, not only calls to the migrating shard,
 * so a request the worker answers alone (a 404, a static file, an auth
 * route) is as much a reason for small batches as a shard call. Where the
 * shard has an isolate to itself, the count stays still and changes
 * nothing.
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
 * How many requests the worker took in this isolate so far: compare two
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
