import { loadavg } from "node:os";
import { type BenchApp, startBenchApp } from "../lib/bench-app.ts";
import { type CpuRoundFigures, cpuRounds } from "../lib/cpu-rounds.ts";
import { percentile } from "../lib/load.ts";

/** Lateness of due jobs beside a number of pending ones. */
export interface LatenessFigures {
  /** Jobs waiting (due in an hour) in the shard beside the measured ones. */
  pending: number;
  /** Measured jobs, due one after another. */
  jobs: number;
  /** From due time to the job's start, ms. */
  p50Ms: number;
  p99Ms: number;
}

/** The scheduler scenario's figures (issue 47). */
export interface SchedulerResult {
  lateness: LatenessFigures[];
  /** Jobs due at the same moment, drained by one shard. */
  drain: { jobs: number; seconds: number; jobsPerSecond: number };
  /** The same mutation without and with one `runAfter`, worker CPU per call over alternating rounds. */
  runAfter: CpuRoundFigures[];
  /** The rounds of {@link SchedulerResult.runAfter}. */
  rounds: { rounds: number; calls: number };
  /** The machine's 1-minute load average at the start and the end of the scenario. */
  load: [number, number];
}

/** Issue 47's goal: `runAfter` adds at most 10 % to a mutation's CPU. */
export const RUN_AFTER_GOAL = 0.1;

const PENDING = [1, 1_000, 10_000];
/** Measured jobs per pending level, due every 100 ms. */
const MEASURED = 50;
const DRAINED = 5_000;
/** Jobs one scheduling mutation writes. */
const BATCH = 1_000;
const HOUR = 3_600_000;
const ROUNDS = { rounds: Number(process.env.BENCH_SCHEDULER_ROUNDS) || 40, calls: 100 };

async function call(
  app: BenchApp,
  shardKey: string,
  path: string,
  args: unknown,
): Promise<unknown> {
  const response = await fetch(`${app.url}/_svc/rpc?shardKey=${shardKey}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ path, args }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${path} in ${shardKey}: ${response.status} ${text}`);
  return (JSON.parse(text) as { value: unknown }).value;
}

/** Schedules one stamp job per due time, {@link BATCH} per mutation. */
async function scheduleAt(app: BenchApp, shardKey: string, dues: number[]): Promise<void> {
  for (let start = 0; start < dues.length; start += BATCH)
    await call(app, shardKey, "jobs:scheduleAt", { dues: dues.slice(start, start + BATCH) });
}

/** The shard's stamps once `count` jobs have run (polled), failing after `timeoutMs`. */
async function stampsOnce(
  app: BenchApp,
  shardKey: string,
  count: number,
  timeoutMs: number,
): Promise<{ due: number; ran: number }[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const stamps = (await call(app, shardKey, "jobs:stamps", {})) as { due: number; ran: number }[];
    if (stamps.length >= count) return stamps;
    if (Date.now() > deadline)
      throw new Error(`${shardKey}: ${stamps.length} of ${count} jobs ran`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function lateness(app: BenchApp, pending: number): Promise<LatenessFigures> {
  const shardKey = `sched-late-${pending}`;
  const later = Date.now() + HOUR;
  await scheduleAt(
    app,
    shardKey,
    Array.from({ length: pending }, (_, i) => later + i),
  );
  const first = Date.now() + 1_000;
  await scheduleAt(
    app,
    shardKey,
    Array.from({ length: MEASURED }, (_, i) => first + i * 100),
  );
  const stamps = await stampsOnce(app, shardKey, MEASURED, 120_000);
  const late = stamps.map((stamp) => stamp.ran - stamp.due);
  return {
    pending,
    jobs: MEASURED,
    p50Ms: percentile(late, 0.5),
    p99Ms: percentile(late, 0.99),
  };
}

async function drain(app: BenchApp): Promise<SchedulerResult["drain"]> {
  const shardKey = "sched-drain";
  // Due once every job is written, so the drain is all that is timed.
  const due = Date.now() + 20_000;
  await scheduleAt(
    app,
    shardKey,
    Array.from({ length: DRAINED }, () => due),
  );
  if (Date.now() > due) throw new Error("scheduling the drained jobs took longer than 20 s");
  const stamps = await stampsOnce(app, shardKey, DRAINED, 600_000);
  const seconds = (Math.max(...stamps.map((stamp) => stamp.ran)) - due) / 1000;
  return { jobs: DRAINED, seconds, jobsPerSecond: DRAINED / seconds };
}

/**
 * The scheduler (issue 47) in the bench worker: how late a due job starts
 * beside 1, 1,000 and 10,000 pending ones (p50/p99 of {@link MEASURED} jobs
 * due 100 ms apart, each recording when it started); how fast one shard
 * drains {@link DRAINED} jobs due at the same moment; and what one
 * `runAfter` adds to a mutation's worker CPU (the same REST mutation with
 * and without it, alternating rounds of calls made inside the worker, the
 * median of per-round ratios).
 */
export async function measureScheduler(log: (line: string) => void): Promise<SchedulerResult> {
  const loadBefore = loadavg()[0]!;
  const app = await startBenchApp();
  try {
    const figures: LatenessFigures[] = [];
    for (const pending of PENDING) {
      const row = await lateness(app, pending);
      log(`    ${pending} pending: lateness p50 ${row.p50Ms} ms, p99 ${row.p99Ms} ms`);
      figures.push(row);
    }
    const drained = await drain(app);
    log(`    ${drained.jobs} due at once: ${drained.jobsPerSecond.toFixed(0)} jobs/s`);
    const target = "http://svc.bench/_svc/rest/jobs/write?shardKey=sched-write";
    const runAfter = await cpuRounds(
      app,
      target,
      [
        { name: "mutation", variant: "plain", body: JSON.stringify({ withJob: false }) },
        { name: "mutation + runAfter", variant: "plain", body: JSON.stringify({ withJob: true }) },
      ],
      ROUNDS,
    );
    for (const row of runAfter)
      log(
        `    ${row.name}: ${row.usPerCall.toFixed(0)} µs a call, cost ${(row.cost * 100).toFixed(1)} %`,
      );
    return {
      lateness: figures,
      drain: drained,
      runAfter,
      rounds: ROUNDS,
      load: [loadBefore, loadavg()[0]!],
    };
  } finally {
    await app.stop();
  }
}
