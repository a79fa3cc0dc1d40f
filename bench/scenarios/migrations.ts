import { type BenchApp, postJson, startBenchApp } from "../lib/bench-app.ts";
import { median, percentile } from "../lib/load.ts";

/** Migration throughput in `shards` shards at once, svc against the plain UPDATE loop. */
export interface MigrationThroughput {
  shards: number;
  documentsPerShard: number;
  /** Per round: documents migrated per second over all shards. */
  svcRounds: number[];
  plainRounds: number[];
  /** Medians of the rounds. */
  svcDocsPerSecond: number;
  plainDocsPerSecond: number;
  /** Median of per-round svc / plain ratios. */
  ratio: number;
}

/** A new index on a table of `documents` documents: svc's shard start against a plain CREATE INDEX. */
export interface IndexBuild {
  documents: number;
  /** A restart and the first call after it (the start builds the new index). */
  svcStartMs: number;
  /** The same restart when no index is missing (what the build adds is the difference). */
  svcStartWithoutBuildMs: number;
  /** `CREATE INDEX` on the same documents in a plain Durable Object. */
  plainCreateIndexMs: number;
}

/** The latency of calls made one after another, in milliseconds. */
export interface CallLatency {
  calls: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
}

/**
 * What a migration costs the calls a shard answers meanwhile: the same
 * read, one call after another, to the shard idle and then while it
 * migrates `documents` documents; then a request the worker answers alone
 * (a 404), idle and while a second shard migrates as many: it never reaches
 * the shard, but locally shares its isolate.
 */
export interface CallsDuringMigration {
  documents: number;
  idle: CallLatency;
  during: CallLatency;
  /** Absent from runs before it was measured. */
  workerAlone?: { idle: CallLatency; during: CallLatency };
}

/** What the migrations scenario measured. */
export interface MigrationsResult {
  oneShard: MigrationThroughput;
  tenShards: MigrationThroughput;
  indexBuilds: IndexBuild[];
  /** Absent from runs before it was measured. */
  callsDuring?: CallsDuringMigration;
}

const ROUNDS = 3;
/** Documents the shard migrates while the calls are timed. */
const LATENCY_DOCUMENTS = 100_000;
/** Calls timed on the idle shard, before its migration starts. */
const IDLE_CALLS = 500;
/** Calls timed between two looks at the migration's state. */
const CALLS_PER_LOOK = 20;

async function call(app: BenchApp, action: string, params: Record<string, string | number>) {
  const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
  const { body } = await postJson(`${app.url}/data-bench/${action}?${query}`, {});
  return body as { state?: string; scanned?: number } | null;
}

/** Seeds old documents in each shard and restarts it, so it registers the migration. */
async function prepareSvc(app: BenchApp, shards: readonly string[], count: number): Promise<void> {
  for (const shard of shards) {
    await call(app, "seed", { shard, count, shape: "old" });
    await call(app, "restart", { shard });
    await call(app, "status", { shard });
  }
}

/** Starts the migration in every shard and polls until each is done; answers the seconds taken. */
async function runSvc(app: BenchApp, shards: readonly string[]): Promise<number> {
  const started = performance.now();
  await Promise.all(shards.map((shard) => call(app, "run", { shard })));
  const pending = new Set(shards);
  while (pending.size > 0) {
    for (const shard of [...pending]) {
      const status = await call(app, "status", { shard });
      if (status?.state === "done") pending.delete(shard);
      else if (status?.state !== "running")
        throw new Error(`migration in ${shard} is ${JSON.stringify(status)}`);
    }
    if (pending.size > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return (performance.now() - started) / 1000;
}

async function runPlain(app: BenchApp, shards: readonly string[], count: number): Promise<number> {
  for (const shard of shards) await call(app, "plain-seed", { shard, count, shape: "old" });
  const started = performance.now();
  await Promise.all(shards.map((shard) => call(app, "plain-update", { shard })));
  return (performance.now() - started) / 1000;
}

async function throughput(
  app: BenchApp,
  shardCount: number,
  documentsPerShard: number,
  log: (line: string) => void,
): Promise<MigrationThroughput> {
  const svcRounds: number[] = [];
  const plainRounds: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const shards = Array.from({ length: shardCount }, (_, i) => `mig-${shardCount}-${round}-${i}`);
    await prepareSvc(app, shards, documentsPerShard);
    const total = shardCount * documentsPerShard;
    svcRounds.push(total / (await runSvc(app, shards)));
    plainRounds.push(total / (await runPlain(app, shards, documentsPerShard)));
    log(
      `    ${shardCount} shard(s) × ${documentsPerShard.toLocaleString("en-US")}: svc ${Math.round(svcRounds.at(-1) as number)} docs/s, plain ${Math.round(plainRounds.at(-1) as number)} docs/s`,
    );
  }
  return {
    shards: shardCount,
    documentsPerShard,
    svcRounds,
    plainRounds,
    svcDocsPerSecond: median(svcRounds),
    plainDocsPerSecond: median(plainRounds),
    ratio: median(svcRounds.map((svc, index) => svc / (plainRounds[index] as number))),
  };
}

function latencyOf(samples: number[]): CallLatency {
  return {
    calls: samples.length,
    p50Ms: percentile(samples, 0.5),
    p95Ms: percentile(samples, 0.95),
    p99Ms: percentile(samples, 0.99),
    maxMs: Math.max(...samples),
  };
}

/** Runs `shard`'s migration and times `request`, one after another, until the migration is done. */
async function timedWhileMigrating(
  app: BenchApp,
  shard: string,
  request: () => Promise<number>,
): Promise<number[]> {
  await call(app, "run", { shard });
  const during: number[] = [];
  for (let state = "running"; state !== "done"; ) {
    for (let i = 0; i < CALLS_PER_LOOK; i++) during.push(await request());
    state = (await call(app, "status", { shard }))?.state ?? "unknown";
    if (state !== "running" && state !== "done") {
      throw new Error(`migration in ${shard} is ${state}`);
    }
  }
  return during;
}

/**
 * Times a REST read (`rows:get`) to one shard, one call after another:
 * {@link IDLE_CALLS} calls with the shard idle, then calls until its
 * migration of {@link LATENCY_DOCUMENTS} documents is done. Then the same
 * for a request the worker answers alone (a 404) while a second shard
 * migrates as many: it never reaches the shard, but locally shares its
 * isolate. The migration lets waiting calls in between batches; what a
 * call waits meanwhile is what this measures.
 */
async function callsDuringMigration(
  app: BenchApp,
  log: (line: string) => void,
): Promise<CallsDuringMigration> {
  const shard = "mig-latency";
  const aloneShard = "mig-latency-alone";
  await prepareSvc(app, [shard, aloneShard], LATENCY_DOCUMENTS);
  const { body } = await postJson(`${app.url}/_svc/rpc?shardKey=${shard}`, {
    path: "rows:seed",
    args: {},
  });
  const url = `${app.url}/_svc/rest/rows/get?shardKey=${shard}&id=${(body as { value: string }).value}`;
  const read = () => timedGet(url, 200);
  const workerAlone = () => timedGet(`${app.url}/bench/no-such-page`, 404);
  const idle: number[] = [];
  const idleAlone: number[] = [];
  for (let i = 0; i < IDLE_CALLS; i++) {
    idle.push(await read());
    idleAlone.push(await workerAlone());
  }
  const during = await timedWhileMigrating(app, shard, read);
  const duringAlone = await timedWhileMigrating(app, aloneShard, workerAlone);
  const result = {
    documents: LATENCY_DOCUMENTS,
    idle: latencyOf(idle),
    during: latencyOf(during),
    workerAlone: { idle: latencyOf(idleAlone), during: latencyOf(duringAlone) },
  };
  log(
    `    reads during a migration of ${LATENCY_DOCUMENTS.toLocaleString("en-US")} documents: p50 ${result.during.p50Ms.toFixed(1)} ms, p99 ${result.during.p99Ms.toFixed(1)} ms (idle: ${result.idle.p50Ms.toFixed(1)} / ${result.idle.p99Ms.toFixed(1)} ms), ${result.during.calls} calls; the worker alone: p50 ${result.workerAlone.during.p50Ms.toFixed(1)} ms (idle ${result.workerAlone.idle.p50Ms.toFixed(1)} ms)`,
  );
  return result;
}

/** Times one GET of `url`, its body read, failing unless it answers `status`. */
function timedGet(url: string, status: number): Promise<number> {
  return timed(async () => {
    const response = await fetch(url);
    await response.arrayBuffer();
    if (response.status !== status) throw new Error(`${url} answered ${response.status}`);
  });
}

async function timed(task: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await task();
  return performance.now() - started;
}

async function indexBuild(
  app: BenchApp,
  documents: number,
  log: (line: string) => void,
): Promise<IndexBuild> {
  const shard = `index-${documents}`;
  await call(app, "seed", { shard, count: documents, shape: "new" });
  // Whichever call meets the new instance pays for its start: time both.
  const restart = async () => {
    await call(app, "restart", { shard });
    await call(app, "status", { shard });
  };
  const svcStartMs = await timed(restart);
  const svcStartWithoutBuildMs = await timed(restart);
  await call(app, "plain-seed", { shard, count: documents, shape: "new" });
  const plainCreateIndexMs = await timed(() => call(app, "plain-index", { shard }));
  log(
    `    index on ${documents.toLocaleString("en-US")} documents: svc start ${Math.round(svcStartMs)} ms (${Math.round(svcStartWithoutBuildMs)} ms without the build), plain CREATE INDEX ${Math.round(plainCreateIndexMs)} ms`,
  );
  return { documents, svcStartMs, svcStartWithoutBuildMs, plainCreateIndexMs };
}

/**
 * Online data migrations and index builds (issue 27): the bench migration
 * (`bench/app/svc/migrations/`) over 100,000 old documents in one shard and
 * 20,000 in each of 10 shards at once, against a plain UPDATE loop doing
 * the same change in plain Durable Objects (500 documents per transaction,
 * as svc's default batch); then a new index on 100,000 and 1,000,000
 * documents, built by the shard's start, against a plain CREATE INDEX;
 * then the latency of reads to a shard while it migrates, against the same
 * reads to it idle.
 */
export async function measureMigrations(log: (line: string) => void): Promise<MigrationsResult> {
  const app = await startBenchApp();
  try {
    const oneShard = await throughput(app, 1, 100_000, log);
    const tenShards = await throughput(app, 10, 20_000, log);
    const indexBuilds = [
      await indexBuild(app, 100_000, log),
      await indexBuild(app, 1_000_000, log),
    ];
    const callsDuring = await callsDuringMigration(app, log);
    return { oneShard, tenShards, indexBuilds, callsDuring };
  } finally {
    await app.stop();
  }
}
