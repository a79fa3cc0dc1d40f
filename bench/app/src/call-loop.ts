import type { SvcWorker } from "@svc/server";

/** The most calls one loop request may make: a few seconds of work at most. */
const MAX_CALLS = 10_000;

/**
 * `GET /bench/loop?variant=&calls=&target=[&body=]`: makes `calls` requests to
 * `target` one after another through the named svc worker's own `fetch`,
 * inside this one request (`POST`s of `body` when given, for a mutation),
 * and answers how many succeeded. The observability
 * scenario reads the worker process's CPU around each loop: with no HTTP
 * server, socket or load generator in between, what differs between two
 * variants is only what the variants do, so rounds of a few dozen
 * milliseconds can alternate variants finely and a cost of a few percent
 * stands out of this machine's noise.
 *
 * The calls get a context of the loop's own whose `waitUntil` collects what
 * they leave running (the log store's batched write, 100 ms later), and the
 * loop answers only once all of it has settled: a variant's deferred work is
 * counted in its own round, never in whichever variant's round follows.
 *
 * @example
 * ```ts
 * await fetch(`${app.url}/bench/loop?variant=logs-off&calls=100&target=${encodeURIComponent(rest)}`);
 * ```
 */
export async function callLoop<Env>(
  url: URL,
  variants: Record<string, SvcWorker<Env>>,
  env: Env,
  ctx: ExecutionContext,
): Promise<Response> {
  const worker = variants[url.searchParams.get("variant") ?? ""];
  const calls = Number(url.searchParams.get("calls"));
  const target = url.searchParams.get("target");
  // A mutation's arguments: each call then POSTs them as JSON.
  const body = url.searchParams.get("body");
  if (worker === undefined || target === null || !Number.isSafeInteger(calls)) {
    return new Response("variant, calls and target are required", { status: 400 });
  }
  if (calls < 1 || calls > MAX_CALLS) {
    return new Response(`calls must be 1 to ${MAX_CALLS}`, { status: 400 });
  }
  const deferred: Promise<unknown>[] = [];
  const collect = (promise: Promise<unknown>) => {
    deferred.push(promise);
  };
  // The loop's own context: `waitUntil` collects, everything else is the request's.
  const loopCtx = new Proxy(ctx, {
    get(target, key) {
      if (key === "waitUntil") return collect;
      const value: unknown = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  let ok = 0;
  for (let i = 0; i < calls; i++) {
    const request =
      body === null
        ? new Request(target)
        : new Request(target, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body,
          });
    const response = await worker.fetch(request, env, loopCtx);
    await response.arrayBuffer();
    if (response.ok) ok++;
  }
  // Deferred work may defer more (a write that schedules the next): wait until none is left.
  for (let settled = 0; settled < deferred.length; settled = deferred.length) {
    await Promise.allSettled(deferred.slice(settled));
  }
  return Response.json({ calls, ok });
}
