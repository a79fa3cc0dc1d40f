import { BENCH_ADMIN_TOKEN } from "../app/src/studio-admin.ts";
import { type BenchApp, seedRow, startBenchApp } from "../lib/bench-app.ts";
import { type CpuRoundFigures, type CpuRoundPlan, cpuRounds } from "../lib/cpu-rounds.ts";
import { compare, type LoadFigures, median, medianRatio, percentile, sized } from "../lib/load.ts";

/** Call records (issue 29): what recording costs a call, a store write, and a dashboard query. */
export interface ObservabilityResult {
  figures: LoadFigures[];
  /** 1 − throughput with records on the console and in the store / throughput without recording. */
  recordingCost: number;
  /**
   * The middle half of the per-round costs of the default (the 25th and 75th
   * percentiles of 1 − round ratio): how far one round's figure strays.
   * Absent from runs before it was reported.
   */
  recordingCostQuartiles?: [number, number];
  /** The same with records in the store only (no console line). */
  storeOnlyCost: number;
  /**
   * The same with console lines only, printed by the worker itself (no
   * store): what a call pays where the store cannot print its line.
   * Absent from runs before the store printed the lines.
   */
  workerConsoleCost?: number;
  /**
   * Worker CPU per call with the calls made inside the worker (no HTTP per
   * call), the variants alternating in rounds of `cpuPlan.calls` calls:
   * recording off first, then off again (the method's own spread), then the
   * variants above. Absent from runs before it was measured.
   */
  cpuPerCall?: CpuRoundFigures[];
  /** The rounds behind `cpuPerCall`; absent from runs that made 600 rounds of 100 calls. */
  cpuPlan?: CpuRoundPlan;
  /**
   * One call at a time, in alternating blocks (robust to a machine whose load
   * drifts): each variant's median latency, and its median block ratio to
   * recording off (1.02 = 2 % slower).
   */
  sequential: { name: string; p50Ms: number; ratioToOff: number }[];
  /** Milliseconds one batch write spends per record (batches of 100 and 500, medians). */
  writeMsPerRecord: { batch: number; msPerRecord: number }[];
  /** Records in the store when the queries ran. */
  storedRecords: number;
  seedSeconds: number;
  /** Wall time of admin API reads over the seeded store, as the dashboard and CLI make them. */
  queries: { name: string; p50Ms: number; p95Ms: number }[];
}

const PARTITIONS = 4;
/**
 * The recording comparison: many short rounds, as its goal is a few percent
 * and this machine's speed moves by more than that from one second to the
 * next; a round's targets run back to back, so each per-round ratio compares
 * like with like, and the median over 41 rounds is what counts.
 */
const PLAN = sized({ connections: 16, warmupSeconds: 2, roundSeconds: 1, rounds: 41 });

/** The variants compared, by their `x-bench-variant` (bench/app/src/worker.ts). */
const VARIANTS = [
  { name: "recording off", variant: "logs-off" },
  { name: "records in the store", variant: "logs-store-only" },
  { name: "console lines printed by the worker (no store)", variant: "logs-console-only" },
  { name: "records on the console and in the store", variant: "plain" },
] as const;
/** The in-worker comparison: recording off twice (the method's spread), then each variant. */
const CPU_VARIANTS = [
  VARIANTS[0],
  { name: "recording off, again (the method's own spread)", variant: "logs-off" },
  ...VARIANTS.slice(1),
];
/**
 * A round holds a full batch of records (500): a busy isolate's batches grow
 * to that size (`StoreShipper`), so each round carries one write, as the
 * isolate's calls do under load.
 */
const CPU_PLAN: CpuRoundPlan = { rounds: 400, calls: 500 };
const SEED_BATCH = 2_000;
const SEQUENTIAL_BLOCKS = 30;
const CALLS_PER_BLOCK = 50;

async function timed(url: string, headers: Record<string, string>): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, { headers });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return performance.now() - started;
}

/**
 * Calls `url` one at a time as each variant, in {@link SEQUENTIAL_BLOCKS}
 * rounds of {@link CALLS_PER_BLOCK} calls per variant, the variants' order
 * rotating each round; the first variant is the baseline of the ratios.
 */
async function sequentialBlocks(
  url: string,
  variants: readonly { name: string; variant: string }[],
): Promise<ObservabilityResult["sequential"]> {
  const samples = variants.map(() => [] as number[]);
  const blockMedians = variants.map(() => [] as number[]);
  for (let block = 0; block < SEQUENTIAL_BLOCKS; block++) {
    for (let turn = 0; turn < variants.length; turn++) {
      const index = (block + turn) % variants.length;
      const headers = { "x-bench-variant": variants[index]!.variant };
      const times: number[] = [];
      for (let call = 0; call < CALLS_PER_BLOCK; call++) times.push(await timed(url, headers));
      samples[index]!.push(...times);
      blockMedians[index]!.push(median(times));
    }
  }
  return variants.map(({ name }, index) => ({
    name,
    p50Ms: median(samples[index]!),
    ratioToOff: median(
      blockMedians[index]!.map((value, block) => value / blockMedians[0]![block]!),
    ),
  }));
}

/** The 25th and 75th percentiles of `1 − target / baseline` over the rounds. */
function quartileCosts(target: LoadFigures, baseline: LoadFigures): [number, number] {
  const costs = target.rounds.map((value, round) => 1 - value / baseline.rounds[round]!);
  return [percentile(costs, 0.25), percentile(costs, 0.75)];
}

/** Writes `total` synthetic records, spread evenly over the partitions, a batch per request. */
async function seed(app: BenchApp, total: number, log: (line: string) => void): Promise<void> {
  const perPartition = Math.ceil(total / PARTITIONS);
  await Promise.all(
    Array.from({ length: PARTITIONS }, async (_, partition) => {
      for (let done = 0; done < perPartition; done += SEED_BATCH) {
        const from = partition * perPartition + done;
        const count = Math.min(SEED_BATCH, perPartition - done);
        const response = await fetch(
          `${app.url}/obs/seed?partition=${partition}&from=${from}&count=${count}`,
          { method: "POST" },
        );
        if (!response.ok)
          throw new Error(`seeding answered ${response.status}: ${await response.text()}`);
        if (partition === 0 && done % 50_000 === 0) {
          log(
            `    seeded ${(done * PARTITIONS).toLocaleString("en")} of ${total.toLocaleString("en")}`,
          );
        }
      }
    }),
  );
}

/**
 * The REST read with recording off, with records in the store only, with
 * console lines printed by the worker (no store), and with records on the
 * console and in the store (the default: the store prints the lines),
 * interleaved in one run, the worker's CPU per request from its own workerd;
 * then the same read made inside the worker in alternating rounds (CPU per
 * call, {@link cpuRounds}); then the store's write cost per record; then the dashboard's
 * and CLI's queries over `stored` seeded records (default 1,000,000).
 */
export async function measureObservability(
  log: (line: string) => void,
  stored = 1_000_000,
): Promise<ObservabilityResult> {
  const app = await startBenchApp();
  try {
    const rowId = await seedRow(app);
    const url = `${app.url}/_svc/rest/rows/get?shardKey=bench&id=${rowId}`;
    const figures = await compare(
      VARIANTS.map(({ name, variant }) => ({ name, url, headers: { "x-bench-variant": variant } })),
      { ...PLAN, cpuProbe: app.workerCpuMs, settle: app.settle },
      log,
    );
    const [off, storeOnly, workerConsole, recorded] = figures as [
      LoadFigures,
      LoadFigures,
      LoadFigures,
      LoadFigures,
    ];
    log(
      `    worker CPU per call, ${CPU_PLAN.rounds} alternating rounds of ${CPU_PLAN.calls} calls`,
    );
    const inWorkerUrl = `http://svc.bench/_svc/rest/rows/get?shardKey=bench&id=${rowId}`;
    const cpuPerCall = await cpuRounds(app, inWorkerUrl, CPU_VARIANTS, CPU_PLAN);
    for (const row of cpuPerCall) {
      log(
        `    ${row.name}: ${row.usPerCall.toFixed(0)} µs a call, cost ${(row.cost * 100).toFixed(1)} %`,
      );
    }
    log("    one call at a time, alternating blocks");
    const sequential = await sequentialBlocks(url, VARIANTS);
    for (const row of sequential) {
      log(`    ${row.name}: p50 ${row.p50Ms.toFixed(2)} ms, ${row.ratioToOff.toFixed(3)}× off`);
    }

    const writeMsPerRecord = [];
    for (const batch of [100, 500]) {
      const samples: number[] = [];
      for (let i = 0; i < 15; i++) {
        const response = await fetch(`${app.url}/obs/write?count=${batch}`, { method: "POST" });
        samples.push(((await response.json()) as { ms: number }).ms / batch);
      }
      writeMsPerRecord.push({ batch, msPerRecord: median(samples) });
    }

    log(`    seeding ${stored.toLocaleString("en")} records over ${PARTITIONS} partitions`);
    const seedStarted = Date.now();
    await seed(app, stored, log);
    const seedSeconds = Math.round((Date.now() - seedStarted) / 1000);

    const admin = {
      authorization: `Bearer ${BENCH_ADMIN_TOKEN}`,
      "x-bench-variant": "logs-store-only",
    };
    const base = `${app.url}/_svc/admin/logs`;
    const first = (await (await fetch(`${base}?limit=50`, { headers: admin })).json()) as {
      cursor: string;
    };
    const shapes: [string, string][] = [
      ["newest 50 (the Logs page)", `${base}?limit=50`],
      ["next page (cursor)", `${base}?limit=50&cursor=${first.cursor}`],
      ["one function", `${base}?function=module3:function9`],
      ["failures (status=5xx)", `${base}?status=5xx`],
      ["one caller", `${base}?user=user-421`],
      ["one shard, last 24 h", `${base}?shard=shard-7&since=24h`],
      ["text in console lines", `${base}?q=order%20123`],
      [
        "one record by request id",
        `${base}/00000000-0000-4000-8000-${(4242).toString(16).padStart(12, "0")}`,
      ],
      ["error groups", `${base}/groups`],
      ["metrics, 7 days", `${base}/metrics?window=7d`],
      ["Prometheus scrape", `${app.url}/_svc/admin/metrics`],
    ];
    const queries = [];
    for (const [name, target] of shapes) {
      await timed(target, admin);
      const samples: number[] = [];
      for (let i = 0; i < 25; i++) samples.push(await timed(target, admin));
      queries.push({ name, p50Ms: median(samples), p95Ms: percentile(samples, 0.95) });
      log(`    ${name}: p50 ${median(samples).toFixed(1)} ms`);
    }
    return {
      figures,
      recordingCost: 1 - medianRatio(recorded, off),
      recordingCostQuartiles: quartileCosts(recorded, off),
      storeOnlyCost: 1 - medianRatio(storeOnly, off),
      workerConsoleCost: 1 - medianRatio(workerConsole, off),
      cpuPerCall,
      cpuPlan: CPU_PLAN,
      sequential,
      writeMsPerRecord,
      storedRecords: stored,
      seedSeconds,
      queries,
    };
  } finally {
    await app.stop();
  }
}
