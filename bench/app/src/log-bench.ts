import { type CallRecord, createLogStore, recordBodies } from "@svc/server";

/**
 * The benchmark's log store: 1 GiB a partition, so a million seeded records
 * stay (the default 128 MiB would prune them).
 */
export const BenchLogStore = createLogStore({ maxBytes: 1024 * 1024 * 1024 });

/** What the log store answers over RPC that the benchmark uses. */
interface StoreStub {
  write(bodies: string[]): Promise<void>;
}

interface Env {
  SVC_LOGS: DurableObjectNamespace;
}

const FUNCTIONS = Array.from({ length: 24 }, (_, i) => `module${i % 6}:function${i}`);
const ENTRIES = ["rpc", "rest", "rpc", "rest", "http", "ws", "cron", "queue"] as const;
const CODES = [
  [400, "VALIDATION_FAILED"],
  [403, "FORBIDDEN"],
  [404, "NOT_FOUND"],
  [500, "INTERNAL"],
] as const;
const DAY = 86_400_000;

/** A deterministic pseudo-random number in [0, 1) from an integer. */
function unit(n: number): number {
  const x = Math.sin(n * 12.9898) * 43758.5453;
  return x - Math.floor(x);
}

/**
 * A synthetic record `n` of a realistic mix: 24 functions, 8 entry points,
 * about 3 % failures (with message and stack), 1,000 callers, 50 shards,
 * console lines on 1 in 10, times spread over the last six days.
 */
export function syntheticRecord(n: number, now: number): CallRecord {
  const failed = unit(n) < 0.03;
  const [status, code] = failed ? CODES[n % CODES.length]! : [200, null];
  const route = FUNCTIONS[n % FUNCTIONS.length]!;
  return {
    requestId: `00000000-0000-4000-8000-${n.toString(16).padStart(12, "0")}`,
    time: new Date(now - Math.floor(unit(n + 1) * 6 * DAY)).toISOString(),
    entry: ENTRIES[n % ENTRIES.length]!,
    route,
    method: "POST",
    shardKey: `shard-${n % 50}`,
    caller: n % 7 === 0 ? { kind: "anonymous" } : { kind: "user", id: `user-${n % 1000}` },
    status,
    code,
    durationMs: Math.round(unit(n + 2) * 80 * 100) / 100,
    bytesIn: 60,
    bytesOut: 240,
    logs:
      n % 10 === 0
        ? [{ level: "log", at: 1, message: `processed item ${n} for order ${n % 997}` }]
        : [],
    logsDropped: 0,
    error: failed
      ? {
          message: `${code} while handling item ${n}`,
          stack: `Error: ${code} while handling item ${n}\n    at handler (worker.js:1:1)`,
        }
      : null,
  };
}

/**
 * `POST /obs/seed?partition=p&from=n&count=c`: writes records n … n+c-1 into
 * one partition in one batch (the benchmark's seeding); `POST
 * /obs/write?count=c`: times one batch write of c records into a partition of
 * its own and answers the milliseconds it took.
 */
export async function logBenchRoute(url: URL, env: Env): Promise<Response> {
  const count = Number(url.searchParams.get("count") ?? 1000);
  const now = Date.now();
  if (url.pathname === "/obs/seed") {
    const partition = Number(url.searchParams.get("partition") ?? 0);
    const from = Number(url.searchParams.get("from") ?? 0);
    const records = Array.from({ length: count }, (_, i) => syntheticRecord(from + i, now));
    const store = env.SVC_LOGS.getByName(`svc-logs-${partition}`) as unknown as StoreStub;
    await store.write(recordBodies(records));
    return Response.json({ written: count });
  }
  const records = Array.from({ length: count }, (_, i) => syntheticRecord(10_000_000 + i, now));
  const store = env.SVC_LOGS.getByName("write-cost") as unknown as StoreStub;
  const started = performance.now();
  await store.write(recordBodies(records));
  return Response.json({ ms: performance.now() - started });
}
