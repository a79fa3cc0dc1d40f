import { postJson, startBenchApp } from "../lib/bench-app.ts";
import {
  compare,
  DEFAULT_PLAN,
  type LoadFigures,
  medianCpuRatio,
  medianRatio,
  sized,
} from "../lib/load.ts";

/**
 * A long answer: 100 rows read from a Durable Object's SQLite, through svc's
 * REST (`GET /_svc/rest/rows/list`) and through the hand-written Hono route
 * (`GET /hono/rows`). Where a one-row read measures svc's fixed cost per
 * call, this measures what grows with the answer: reading and encoding the
 * rows, and carrying them from the shard to the worker (svc's shard answers
 * their JSON text, one string across the Durable Object call).
 */
export interface ListsResult {
  figures: LoadFigures[];
  /** svc REST's workerd CPU per request over the hand-written route's (median of per-round ratios). */
  cpuVsHandWritten: number | null;
  /** svc REST's throughput over the hand-written route's (median of per-round ratios). */
  throughputVsHandWritten: number;
}

/** The targets' names, which the report looks up. */
export const LIST_REST = "svc REST list of 100 rows";
export const LIST_HONO = "hand-written Hono → DO, 100 rows";

const PLAN = sized({ ...DEFAULT_PLAN, rounds: 9 });

/**
 * Runs the lists scenario: 100 rows in shard `lists` and in the hand-written
 * object `lists`, then both targets in interleaved rounds with the worker's
 * CPU per request measured.
 *
 * @example
 * ```ts
 * const result = await measureLists(console.error);
 * result.cpuVsHandWritten; // 1.05: svc's REST list costs 5 % more CPU per request
 * ```
 */
export async function measureLists(log: (line: string) => void): Promise<ListsResult> {
  const app = await startBenchApp();
  try {
    // postJson throws on an answer other than 2xx.
    await postJson(`${app.url}/_svc/rpc?shardKey=lists`, {
      path: "rows:fill",
      args: { count: 100, from: 0 },
    });
    await postJson(`${app.url}/hono/fill`, {});
    const figures = await compare(
      [
        { name: LIST_REST, url: `${app.url}/_svc/rest/rows/list?shardKey=lists` },
        { name: LIST_HONO, url: `${app.url}/hono/rows` },
      ],
      { ...PLAN, cpuProbe: app.workerCpuMs, settle: app.settle },
      log,
    );
    const [rest, hono] = figures as [LoadFigures, LoadFigures];
    return {
      figures,
      cpuVsHandWritten: medianCpuRatio(rest, hono),
      throughputVsHandWritten: medianRatio(rest, hono),
    };
  } finally {
    await app.stop();
  }
}
