import { startBenchApp } from "../lib/bench-app.ts";
import { median } from "../lib/load.ts";

/** Rate limiter accuracy under concurrency, and the cost of one `limit` call against a bare DO round trip. */
export interface RateLimitResult {
  accuracy: { attempted: number; limit: number; allowed: number[] };
  microsPerCall: { op: string; micros: number }[];
}

const LOOPS = [
  { op: "ping", query: "op=ping&n=2000", n: 2000, label: "bare Durable Object RPC (baseline)" },
  { op: "limit", query: "op=limit&n=2000", n: 2000, label: "limit(), one hot key, sequential" },
  {
    op: "limit-x32",
    query: "op=limit&n=3200&parallel=32",
    n: 3200,
    label: "limit(), one hot key, 32 at a time",
  },
  {
    op: "limit-new-key",
    query: "op=limit-new-key&n=300",
    n: 300,
    label: "limit(), a new key every call",
  },
];

export async function measureRateLimiter(log: (line: string) => void): Promise<RateLimitResult> {
  const app = await startBenchApp();
  try {
    const allowed: number[] = [];
    for (let run = 0; run < 5; run++) {
      const response = await fetch(`${app.url}/rl/accuracy?key=run-${run}&m=200`);
      allowed.push(((await response.json()) as { allowed: number }).allowed);
    }
    log(`    accuracy: allowed ${allowed.join(", ")} of 200 (limit 50)`);
    const samples = new Map<string, number[]>(LOOPS.map((loop) => [loop.label, []]));
    for (let round = 0; round < 5; round++) {
      for (const loop of LOOPS) {
        const response = await fetch(`${app.url}/rl/loop?${loop.query}`);
        const { ms } = (await response.json()) as { ms: number };
        samples.get(loop.label)!.push((ms * 1000) / loop.n);
      }
    }
    return {
      accuracy: { attempted: 200, limit: 50, allowed },
      microsPerCall: LOOPS.map((loop) => ({
        op: loop.label,
        micros: median(samples.get(loop.label)!),
      })),
    };
  } finally {
    await app.stop();
  }
}
