import { readFile } from "node:fs/promises";
import { postJson, startBenchApp } from "../lib/bench-app.ts";
import { compare, DEFAULT_PLAN, type LoadFigures, median, medianRatio } from "../lib/load.ts";
import { workerdCpuMs, workerdPids } from "../lib/workerd-cpu.ts";

/** Throughput of one call spread round-robin over `shards` shards. */
export interface ShardSpreadRow {
  shards: number;
  figures: LoadFigures;
  /** Median per-round throughput ratio against the same call on one shard. */
  ratioToOne: number;
}

/** The multi-shard scenario: memory per shard, cold against warm calls, throughput as shards grow. */
export interface ShardsResult {
  /** Shards created (each took two writes, so each holds a database with two rows). */
  shards: number;
  /** Resident memory of the app's own workerd process (MiB). */
  memoryMiB: {
    /** After start-up and one warm shard. */
    before: number;
    /** RSS at 10, 100 and 1,000 shards while creating them (older ones evicted meanwhile). */
    curve: { shards: number; rssMiB: number }[];
    /** Right after two sweeps of reads over every shard (those called in the last 10 s still in memory). */
    active: number;
    /** After {@link ShardsResult.idleSeconds} without calls: every shard evicted. */
    idle: number;
  };
  /**
   * (active − before) ÷ shards, in KiB: what a shard in memory costs the
   * process, an underestimate when a sweep took over 10 s (fewer were in
   * memory at once than the divisor says).
   */
  perActiveShardKiB: number;
  /**
   * (idle − before) ÷ shards, in KiB, after every shard was evicted: an upper
   * bound on what an idle shard leaves behind (the process keeps freed memory
   * for reuse rather than returning it).
   */
  perIdleShardKiB: number;
  /** How long one sweep of reads over every shard took (s): under 10 s keeps them all in memory. */
  sweepSeconds: number;
  idleSeconds: number;
  /** Sequential calls, one connection: a new shard's first write against its second (ms, medians). */
  firstCall: { coldMs: number; warmMs: number; ratio: number; coldP90Ms: number };
  /** Sequential REST reads: an evicted shard's first read (the object starts again) against its second. */
  wake: { shards: number; coldMs: number; warmMs: number; ratio: number; coldP90Ms: number };
  /** REST read of one row, spread over 1, 10, 100, 1,000 shards. */
  read: ShardSpreadRow[];
  /** RPC write (one insert), spread over 1, 10, 100, 1,000 shards. */
  write: ShardSpreadRow[];
}

const SHARDS = 1_000;
const SPREADS = [1, 10, 100, 1_000] as const;
const CURVE_AT = new Set([10, 100, 1_000]);
/**
 * Longer than the registry's 10 s report interval and workerd's 10 s eviction
 * of an inactive object (src/workerd/server/server.c++), so every shard has
 * reported and been evicted.
 */
const IDLE_SECONDS = 25;
/** Evicted shards woken one by one for the wake figure. */
const WAKE_SAMPLES = 200;
/** Concurrent calls of a sweep over every shard. */
const SWEEP_CONCURRENCY = 32;

/** Sums a /proc figure over this run's workerd processes. */
async function sumOverOwnWorkerd(read: (pid: number) => Promise<number>): Promise<number> {
  let total = 0;
  for (const pid of await workerdPids()) total += await read(pid).catch(() => 0);
  return total;
}

/** Resident memory of this run's workerd (MiB): VmRSS from /proc/<pid>/status. */
async function ownWorkerdRssMiB(): Promise<number> {
  const kib = await sumOverOwnWorkerd(async (pid) => {
    const status = await readFile(`/proc/${pid}/status`, "utf8");
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  });
  return kib / 1024;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Median RSS of three samples a second apart (RSS moves as the allocator settles). */
async function settledRssMiB(): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < 3; i++) {
    if (i > 0) await sleep(1000);
    samples.push(await ownWorkerdRssMiB());
  }
  return median(samples);
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** Runs `count` tasks with at most `limit` in flight. */
async function pool(count: number, limit: number, task: (index: number) => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

/** Milliseconds `work` took. */
async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** A GET that must answer 2xx; the body is read and dropped. */
async function get(url: string): Promise<void> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  await response.arrayBuffer();
}

/**
 * 1,000 shards on one local workerd: (1) resident memory of the app's
 * workerd process as shards are created, with all of them in memory, and
 * after they idled long enough to be evicted, divided by the shard count;
 * (2) a new shard's first call (object start, schema, first registry
 * bookkeeping) against its second, and an evicted shard's first read against
 * its second, one connection, in sequence; (3) throughput of the REST read
 * and an RPC write spread round-robin over 1, 10, 100 and 1,000 shards,
 * interleaved rounds, as ratios to one shard. Locally every shard runs in the
 * one workerd process (one isolate for the class), so (3) measures what
 * spreading costs (object starts once a shard's calls are over 10 s apart,
 * cache misses), not the parallelism Cloudflare gives by placing objects on
 * many machines.
 */
export async function measureShards(log: (line: string) => void): Promise<ShardsResult> {
  const app = await startBenchApp();
  try {
    const rpc = (shard: string) => `${app.url}/_svc/rpc?shardKey=${shard}`;
    const seed = { path: "rows:seed", args: {} };
    for (let i = 0; i < 20; i++) await postJson(rpc("warm"), seed);
    const before = await settledRssMiB();

    log(
      `  creating ${SHARDS} shards (first and second call each), workerd RSS ${before.toFixed(0)} MiB`,
    );
    const cold: number[] = [];
    const warm: number[] = [];
    const rowIds: string[] = [];
    const curve: { shards: number; rssMiB: number }[] = [];
    for (let i = 0; i < SHARDS; i++) {
      const started = performance.now();
      await postJson(rpc(`scale-${i}`), seed);
      const firstDone = performance.now();
      const { body } = await postJson(rpc(`scale-${i}`), seed);
      cold.push(firstDone - started);
      warm.push(performance.now() - firstDone);
      rowIds.push((body as { value: string }).value);
      if (CURVE_AT.has(i + 1)) {
        const rssMiB = await ownWorkerdRssMiB();
        curve.push({ shards: i + 1, rssMiB });
        log(
          `    ${i + 1} shards: RSS ${rssMiB.toFixed(0)} MiB, cold p50 ${median(cold).toFixed(1)} ms`,
        );
      }
    }
    const readPath = (i: number) => `/_svc/rest/rows/get?shardKey=scale-${i}&id=${rowIds[i]}`;
    const read = (i: number) => `${app.url}${readPath(i)}`;

    // workerd evicts an object after 10 s without calls, so most shards created
    // above are gone again: two sweeps of reads bring every one back into memory.
    let sweepSeconds = 0;
    for (let sweep = 0; sweep < 2; sweep++) {
      sweepSeconds =
        (await timed(() => pool(SHARDS, SWEEP_CONCURRENCY, (i) => get(read(i))))) / 1000;
    }
    const active = await ownWorkerdRssMiB();
    log(
      `    all ${SHARDS} in memory (a sweep took ${sweepSeconds.toFixed(1)} s): RSS ${active.toFixed(0)} MiB`,
    );
    log(`  idle ${IDLE_SECONDS} s (registry reports go out, every shard is evicted)`);
    await sleep(IDLE_SECONDS * 1000);
    const idle = await settledRssMiB();
    log(`    RSS idle ${idle.toFixed(0)} MiB`);

    log(`  waking ${WAKE_SAMPLES} evicted shards one by one`);
    const woken: number[] = [];
    const awake: number[] = [];
    for (let i = 0; i < WAKE_SAMPLES; i++) {
      woken.push(await timed(() => get(read(i))));
      awake.push(await timed(() => get(read(i))));
    }

    log("  throughput as shards grow");
    const roundRobin = (shards: number, path: (i: number) => string) => {
      let next = 0;
      return () => path(next++ % shards);
    };
    const targets = SPREADS.flatMap((shards) => [
      {
        name: `REST read, ${shards.toLocaleString("en-US")} shard${shards === 1 ? "" : "s"}`,
        url: app.url,
        makePath: roundRobin(shards, readPath),
      },
      {
        name: `RPC write, ${shards.toLocaleString("en-US")} shard${shards === 1 ? "" : "s"}`,
        url: app.url,
        method: "POST" as const,
        headers: { "content-type": "application/json" },
        body: JSON.stringify(seed),
        makePath: roundRobin(shards, (i) => `/_svc/rpc?shardKey=scale-${i}`),
      },
    ]);
    const figures = await compare(targets, { ...DEFAULT_PLAN, cpuProbe: workerdCpuMs }, log);
    const rows = (offset: number): ShardSpreadRow[] =>
      SPREADS.map((shards, index) => ({
        shards,
        figures: figures[index * 2 + offset]!,
        ratioToOne: medianRatio(figures[index * 2 + offset]!, figures[offset]!),
      }));
    return {
      shards: SHARDS,
      memoryMiB: { before, curve, active, idle },
      perActiveShardKiB: ((active - before) * 1024) / SHARDS,
      perIdleShardKiB: ((idle - before) * 1024) / SHARDS,
      sweepSeconds,
      idleSeconds: IDLE_SECONDS,
      firstCall: {
        coldMs: median(cold),
        warmMs: median(warm),
        ratio: median(cold) / median(warm),
        coldP90Ms: percentile(cold, 90),
      },
      wake: {
        shards: WAKE_SAMPLES,
        coldMs: median(woken),
        warmMs: median(awake),
        ratio: median(woken) / median(awake),
        coldP90Ms: percentile(woken, 90),
      },
      read: rows(0),
      write: rows(1),
    };
  } finally {
    await app.stop();
  }
}
