import { type BenchApp, postJson, startBenchApp } from "../lib/bench-app.ts";
import { compare, DEFAULT_PLAN, type LoadFigures, medianRatio, percentile } from "../lib/load.ts";
import type { Machine } from "../lib/machine.ts";

/** Search latency over one shard size. */
export interface SearchLatency {
  documents: number;
  /** Seconds to store the notes through the table's triggers (index filled as they are written). */
  seedSeconds: number;
  /** Single searches, one at a time, over the REST route (client-side latency). */
  searches: number;
  p50Ms: number;
  p99Ms: number;
  /** Median latency per search text (`text`: p50 ms, how many notes match). */
  byText: { text: string; p50Ms: number; matches: number; cpuMs?: number }[];
  /** workerd CPU per search over all {@link TEXTS} (user+system, /proc): what a search costs, load aside. */
  cpuMsPerSearch?: number;
  /** The same route with a text that matches nothing ({@link FLOOR_TEXT}): the request's own cost. */
  floor?: { p50Ms: number; cpuMs: number };
}

/** Text search (issue 49): latency at two sizes, and what the index adds to an insert. */
export interface SearchResult {
  latency: SearchLatency[];
  /** `notes:add` into the searched table against the same insert into a table without one. */
  inserts: LoadFigures[];
  /** Insert throughput with the index over without (same run, same rounds). */
  insertRatio: number;
  /** CPU per insert with the index over without. */
  insertCpuRatio: number | null;
  /** Where the figures come from when measured apart from the rest of results.json (`npm run bench -- search`). */
  machine?: Machine;
}

const SIZES = [100_000, 1_000_000];
const SEARCHES = 200;
/**
 * What is searched: a very common word, a common and a rare one, two words,
 * and a prefix (`w12` also finds `w120`…`w1299`); the last word of each is a
 * prefix, as for any search.
 */
const TEXTS = ["w0", "w40", "w4000", "w3 w75", "w12"];
/**
 * A text no note holds, measured beside {@link TEXTS} but outside their
 * figures: the REST call, the shard call and an index lookup that finds
 * nothing, so what is left of a search's time is its own.
 */
const FLOOR_TEXT = "zq";

async function seed(app: BenchApp, shard: string, count: number): Promise<number> {
  const started = performance.now();
  // One call per 100,000: each stays well under any RPC timeout.
  for (let from = 0; from < count; from += 100_000) {
    const response = await fetch(
      `${app.url}/search-bench/seed?shard=${shard}&from=${from}&count=${Math.min(100_000, count - from)}`,
      { method: "POST" },
    );
    if (!response.ok) throw new Error(`seeding ${shard} answered ${response.status}`);
  }
  return (performance.now() - started) / 1000;
}

async function latencyAt(
  app: BenchApp,
  documents: number,
  log: (line: string) => void,
): Promise<SearchLatency> {
  const shard = `search-${documents}`;
  log(`  seeding ${documents.toLocaleString("en-US")} notes`);
  const seedSeconds = await seed(app, shard, documents);
  const all: number[] = [];
  const byText: SearchLatency["byText"] = [];
  let cpuMs = 0;
  let floor: SearchLatency["floor"];
  for (const text of [...TEXTS, FLOOR_TEXT]) {
    const url = `${app.url}/_svc/rest/notes/search?shardKey=${shard}&text=${encodeURIComponent(text)}`;
    await fetch(url).then((response) => response.arrayBuffer());
    const times: number[] = [];
    let matches = 0;
    const cpuBefore = await app.workerCpuMs();
    for (let i = 0; i < SEARCHES / TEXTS.length; i++) {
      const started = performance.now();
      const response = await fetch(url);
      const found = (await response.json()) as unknown[];
      times.push(performance.now() - started);
      if (response.status !== 200) throw new Error(`search answered ${response.status}`);
      matches = found.length;
    }
    const cpu = (await app.workerCpuMs()) - cpuBefore;
    if (text === FLOOR_TEXT) {
      floor = { p50Ms: percentile(times, 0.5), cpuMs: cpu / times.length };
      continue;
    }
    all.push(...times);
    cpuMs += cpu;
    byText.push({ text, p50Ms: percentile(times, 0.5), matches, cpuMs: cpu / times.length });
  }
  const p50Ms = percentile(all, 0.5);
  const p99Ms = percentile(all, 0.99);
  log(
    `    ${documents.toLocaleString("en-US")} notes: search p50 ${p50Ms.toFixed(1)} ms, p99 ${p99Ms.toFixed(1)} ms, ` +
      `CPU ${(cpuMs / all.length).toFixed(1)} ms per search (seeded in ${seedSeconds.toFixed(1)} s)`,
  );
  return {
    documents,
    seedSeconds,
    searches: all.length,
    p50Ms,
    p99Ms,
    byText,
    cpuMsPerSearch: cpuMs / all.length,
    ...(floor ? { floor } : {}),
  };
}

/**
 * Text search at 100,000 and 1,000,000 notes of ~30 words (~200
 * characters, a skewed vocabulary of 10,000 words): single searches over
 * REST; then `notes:add` under load into the searched table against the
 * same insert into a table without a search index, in the same rounds.
 */
export async function measureSearch(log: (line: string) => void): Promise<SearchResult> {
  const app = await startBenchApp();
  try {
    const latency: SearchLatency[] = [];
    for (const size of SIZES) latency.push(await latencyAt(app, size, log));
    let n = 0;
    const insert = (name: string, indexed: boolean) => ({
      name,
      method: "POST" as const,
      url: `${app.url}/_svc/rest/notes/add?shardKey=search-inserts`,
      headers: { "content-type": "application/json" },
      makeBody: () =>
        JSON.stringify({ body: `note ${n++} w1 w20 w300 w4000 about the weekly numbers`, indexed }),
    });
    await postJson(`${app.url}/_svc/rest/notes/add?shardKey=search-inserts`, {
      body: "warm",
      indexed: true,
    });
    const inserts = await compare(
      [insert("insert, search index", true), insert("insert, no search index", false)],
      { ...DEFAULT_PLAN, cpuProbe: () => app.workerCpuMs(), settle: () => app.settle() },
      log,
    );
    const [indexed, plain] = inserts as [LoadFigures, LoadFigures];
    return {
      latency,
      inserts,
      insertRatio: medianRatio(indexed, plain),
      insertCpuRatio:
        indexed.cpuMsPerRequest !== null && plain.cpuMsPerRequest !== null
          ? indexed.cpuMsPerRequest / plain.cpuMsPerRequest
          : null,
    };
  } finally {
    await app.stop();
  }
}
