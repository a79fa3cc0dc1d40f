/**
 * Overhead of one `limit` call from a worker to its store, in workerd.
 *
 *   npm run bench -w @svc/ratelimit
 *
 * Starts `bench/worker.ts` with wrangler's local runtime (workerd + SQLite
 * Durable Objects, as `wrangler dev`), warms up, then runs several rounds of:
 *  1. in-worker loops of sequential calls (bare DO ping, limit on a hot key,
 *     limit on a new key each call) and of 32 concurrent calls on one hot key,
 *     reporting µs per call;
 *  2. sequential HTTP requests from this process to /noop, /ping, /limit,
 *     reporting the median latency of each.
 * Figures are medians over rounds; compare them as ratios within one run.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unstable_startWorker } from "wrangler";

const ROUNDS = 5;
/** Sequential calls per in-worker loop; a new key each call is slower, so fewer. */
const LOOP_CALLS = { ping: 2000, limit: 2000, "limit-new-key": 300, "limit-x32": 3200 };
const HTTP_REQUESTS = 300;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

// Durable Objects persist to disk as under `wrangler dev`, in a directory thrown away afterwards.
const state = await mkdtemp(join(tmpdir(), "svc-ratelimit-bench-"));
const worker = await unstable_startWorker({
  config: new URL("./wrangler.jsonc", import.meta.url).pathname,
  dev: { server: { port: 0 }, inspector: false, watch: false, logLevel: "error", persist: state },
});
await worker.ready;
const base = await worker.url;

type Op = keyof typeof LOOP_CALLS;

async function loop(op: Op): Promise<number> {
  const n = LOOP_CALLS[op];
  const query = op === "limit-x32" ? "op=limit&parallel=32" : `op=${op}`;
  const response = await fetch(new URL(`/loop?${query}&n=${n}`, base));
  const { ms } = (await response.json()) as { ms: number };
  return (ms * 1000) / n;
}

async function http(path: string): Promise<number> {
  const latencies: number[] = [];
  for (let i = 0; i < HTTP_REQUESTS; i++) {
    const started = performance.now();
    const response = await fetch(new URL(path, base));
    await response.arrayBuffer();
    latencies.push((performance.now() - started) * 1000);
  }
  return median(latencies);
}

const loops: Record<Op, number[]> = { ping: [], limit: [], "limit-new-key": [], "limit-x32": [] };
const requests = { "/noop": [] as number[], "/ping": [] as number[], "/limit": [] as number[] };
await loop("ping");
await loop("limit");
await http("/limit");
for (let round = 0; round < ROUNDS; round++) {
  for (const op of Object.keys(loops) as Op[]) loops[op].push(await loop(op));
  for (const path of Object.keys(requests) as (keyof typeof requests)[])
    requests[path].push(await http(path));
}
await worker.dispose();
await rm(state, { recursive: true, force: true });

const fmt = (us: number) => `${us.toFixed(0)} µs`;
console.log(
  `rounds: ${ROUNDS}; calls per loop: ${JSON.stringify(LOOP_CALLS)}; ${HTTP_REQUESTS} requests per path`,
);
console.log("in-worker, per call (median of rounds):");
for (const [op, values] of Object.entries(loops))
  console.log(`  ${op.padEnd(14)} ${fmt(median(values))}`);
console.log("over HTTP, sequential, median latency (median of rounds):");
for (const [path, values] of Object.entries(requests))
  console.log(`  ${path.padEnd(14)} ${fmt(median(values))}`);
const overhead = median(requests["/limit"]) - median(requests["/noop"]);
console.log(`limit overhead over /noop: ${fmt(overhead)} per request`);
