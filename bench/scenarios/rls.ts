import { postJson, startBenchApp } from "../lib/bench-app.ts";
import { compare, type LoadFigures, median, medianRatio } from "../lib/load.ts";

/** A user's read with 100,000 other users' rows in the shard, against the same read in a shard of their own rows only. */
export interface RlsResult {
  foreignRows: number;
  figures: LoadFigures[];
  /** Throughput of the read in the full shard over the empty one (declarative rule). */
  declarativeRatio: number;
  /** CPU per request in the full shard over the empty one (declarative rule). */
  declarativeCpuRatio: number | null;
  /**
   * The policy as a function (post-filter): median latency of single requests
   * in the full shard over the empty one. Measured one request at a time: under
   * load its ~0.5 s requests would queue in the shard and starve the next target.
   */
  functionLatencyMs: { empty: number; full: number };
}

const FOREIGN_ROWS = 100_000;
const OWN_ROWS = 50;
const BATCH = 2_500;

/** Seeds `count` posts by `author` in `shard` (both policy forms), as that author, through `posts:seed`. */
export async function seed(
  url: string,
  shard: string,
  author: string,
  count: number,
): Promise<void> {
  for (let from = 0; from < count; from += BATCH) {
    await postJson(
      `${url}/_svc/rpc?shardKey=${shard}`,
      { path: "posts:seed", args: { author, count: Math.min(BATCH, count - from), from } },
      { "x-bench-variant": "header-identity", "x-bench-user": author },
    );
  }
}

/**
 * Row-level security at scale: `posts:mine` (newest 20 of a channel) for one
 * user, in a shard holding only that user's 50 posts and in one that also
 * holds 100,000 posts of other users in the same channel; under the
 * declarative rule (compiled into SQL, served by `by_author_channel`) and
 * under the same policy as a function.
 */
export async function measureRls(log: (line: string) => void): Promise<RlsResult> {
  const app = await startBenchApp();
  try {
    log(`  seeding ${FOREIGN_ROWS.toLocaleString("en-US")} foreign rows`);
    await seed(app.url, "rls-empty", "me", OWN_ROWS);
    await seed(app.url, "rls-full", "me", OWN_ROWS);
    for (let i = 0; i < 10; i++) await seed(app.url, "rls-full", `other-${i}`, FOREIGN_ROWS / 10);
    const headers = { "x-bench-variant": "header-identity", "x-bench-user": "me" };
    const target = (name: string, procedure: string, shard: string) => ({
      name,
      url: `${app.url}/_svc/rest/posts/${procedure}?shardKey=${shard}&channel=general`,
      headers,
    });
    const figures = await compare(
      [
        target("rule, own rows only", "mine", "rls-empty"),
        target("rule, + 100,000 foreign rows", "mine", "rls-full"),
      ],
      undefined,
      log,
    );
    const [ruleEmpty, ruleFull] = figures as [LoadFigures, LoadFigures];
    const single = async (procedure: string, shard: string): Promise<number> => {
      const times: number[] = [];
      for (let i = 0; i < 7; i++) {
        const { url } = target("", procedure, shard);
        const started = performance.now();
        const response = await fetch(url, { headers });
        await response.arrayBuffer();
        times.push(performance.now() - started);
      }
      return median(times);
    };
    const cpuRatio = (full: LoadFigures, empty: LoadFigures) =>
      full.cpuMsPerRequest !== null && empty.cpuMsPerRequest !== null
        ? full.cpuMsPerRequest / empty.cpuMsPerRequest
        : null;
    return {
      foreignRows: FOREIGN_ROWS,
      figures,
      declarativeRatio: medianRatio(ruleFull, ruleEmpty),
      declarativeCpuRatio: cpuRatio(ruleFull, ruleEmpty),
      functionLatencyMs: {
        empty: await single("mineFn", "rls-empty"),
        full: await single("mineFn", "rls-full"),
      },
    };
  } finally {
    await app.stop();
  }
}
