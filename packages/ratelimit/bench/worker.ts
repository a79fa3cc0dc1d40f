/**
 * The worker `run.ts` measures: each route does one thing so the differences
 * between routes are the cost of that thing.
 *
 * - `/noop`: answers at once (the HTTP baseline).
 * - `/ping`: one RPC to a Durable Object that does nothing (the bare DO round trip).
 * - `/limit?key=`: one `limiter.limit` call.
 * - `/loop?op=ping|limit|limit-new-key&n=&parallel=`: `n` calls inside the
 *   worker, `parallel` at a time (default 1), answering the elapsed
 *   milliseconds (workerd's clock advances across I/O, and every call is I/O).
 */
import { DurableObject } from "cloudflare:workers";
import { createRateLimiter, SECOND } from "../src/index.ts";

export { RateLimitStore } from "../src/index.ts";

/** The baseline object: an RPC method with nothing behind it. */
export class PingStore extends DurableObject {
  ping(): number {
    return 1;
  }
}

interface Env {
  PING: DurableObjectNamespace<PingStore>;
}

// High enough that every call is allowed: the cost of a refusal is the same
// decision minus the storage write.
const limiter = createRateLimiter({
  store: "RATE_LIMIT",
  rates: {
    bench: { kind: "sliding window", rate: 1_000_000, period: SECOND },
  },
});

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    const ping = () => env.PING.getByName("ping").ping();
    const limit = (key: string) => limiter.limit("bench", { key });
    switch (url.pathname) {
      case "/noop":
        return new Response("ok");
      case "/ping":
        return Response.json(await ping());
      case "/limit":
        return Response.json(await limit(url.searchParams.get("key") ?? "hot"));
      case "/loop": {
        const n = Number(url.searchParams.get("n") ?? 1000);
        const parallel = Number(url.searchParams.get("parallel") ?? 1);
        const op = url.searchParams.get("op");
        const run = async (i: number) => {
          if (op === "ping") return ping();
          if (op === "limit") return limit("hot");
          return limit(`new-${crypto.randomUUID()}-${i}`);
        };
        const started = Date.now();
        for (let i = 0; i < n; i += parallel)
          await Promise.all(Array.from({ length: parallel }, (_, j) => run(i + j)));
        return Response.json({ op, n, ms: Date.now() - started });
      }
      default:
        return new Response("not found", { status: 404 });
    }
  },
};
