import type { SvcWorker } from "@svc/server";

/** The most calls one loop request may make: a few seconds of work at most. */
const MAX_CALLS = 10_000;

/**
 * `GET /bench/loop?variant=&calls=&target=`: makes `calls` requests to
 * `target` one after another through the named svc worker's own `fetch`,
 * inside this one request, and answers how many succeeded. The observability
 * scenario reads the worker process's CPU around each loop: with no HTTP
 * server, socket or load generator in between, what differs between two
 * variants is only what the variants do, so rounds of a few dozen
 * milliseconds can alternate variants finely and a cost of a few percent
 * stands out of this machine's noise.
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
  if (worker === undefined || target === null || !Number.isSafeInteger(calls)) {
    return new Response("variant, calls and target are required", { status: 400 });
  }
  if (calls < 1 || calls > MAX_CALLS) {
    return new Response(`calls must be 1 to ${MAX_CALLS}`, { status: 400 });
  }
  let ok = 0;
  for (let i = 0; i < calls; i++) {
    const response = await worker.fetch(new Request(target), env, ctx);
    await response.arrayBuffer();
    if (response.ok) ok++;
  }
  return Response.json({ calls, ok });
}
