import { createRateLimiter, SECOND } from "@svc/ratelimit";

interface LoopEnv {
  PING: DurableObjectNamespace<import("./ping-store.ts").PingStore>;
}

// High enough that every call is allowed: the measured cost is the decision and its write.
const generous = createRateLimiter({
  store: "RATE_LIMITER",
  rates: { bench: { kind: "sliding window", rate: 1_000_000, period: SECOND } },
});

const tight = createRateLimiter({
  store: "RATE_LIMITER",
  rates: { accuracy: { kind: "fixed window", rate: 50, period: 3_600 * SECOND } },
});

/**
 * `/rl/loop?op=ping|limit|limit-new-key&n=&parallel=`: `n` calls inside the
 * worker (`parallel` at a time), answering elapsed ms; `/rl/accuracy?key=&m=`:
 * `m` concurrent calls on one key of a 50-per-hour window, answering how many
 * were allowed.
 */
export async function limiterRoute(url: URL, env: LoopEnv): Promise<Response> {
  if (url.pathname === "/rl/accuracy") {
    const key = url.searchParams.get("key") ?? "k";
    const m = Number(url.searchParams.get("m") ?? 200);
    const results = await Promise.all(
      Array.from({ length: m }, () => tight.limit("accuracy", { key })),
    );
    return Response.json({ allowed: results.filter((result) => result.ok).length, attempted: m });
  }
  const n = Number(url.searchParams.get("n") ?? 1000);
  const parallel = Number(url.searchParams.get("parallel") ?? 1);
  const op = url.searchParams.get("op");
  const run = async (i: number) => {
    if (op === "ping") return env.PING.getByName("ping").ping();
    if (op === "limit") return generous.limit("bench", { key: "hot" });
    return generous.limit("bench", { key: `new-${crypto.randomUUID()}-${i}` });
  };
  const started = Date.now();
  for (let i = 0; i < n; i += parallel)
    await Promise.all(Array.from({ length: parallel }, (_, j) => run(i + j)));
  return Response.json({ op, n, ms: Date.now() - started });
}
