import os from "node:os";
import path from "node:path";
import { runWorkerdBench } from "../lib/workerd-bench.ts";

/** One admin list request over 1,000,000 users: svc's answer against its own SQL run bare on D1. */
export interface AdminCase {
  name: string;
  path: string;
  /** Users matching, as the answer's `total` said. */
  total?: number;
  /** `false` when `total` was a lower bound (the admin API's capped total). */
  totalIsExact?: boolean;
  /** Median ms through `createWorker`'s admin gate and `createAuthAdmin`. */
  svcMs: number;
  /** Median ms of the same statements run straight on the D1 binding. */
  rawMs: number;
  statements: string[];
  /** `EXPLAIN QUERY PLAN` steps, one list per statement. */
  plans: string[][];
}

/** The admin list at scale, from `npm run bench:admin -w @svc/auth`. */
export interface AdminResult {
  users: number;
  rounds: number;
  seededMs: number;
  results: AdminCase[];
  /** The machine's 1-minute load average when the run started and ended (absent in older results). */
  load?: { start: number; end: number };
}

/**
 * Runs the admin list benchmark (packages/auth/test/bench/admin-list.bench.ts)
 * inside workerd with local D1 and reads its result line. It lives with
 * @svc/auth because it needs that package's vitest-pool-workers setup.
 */
export async function measureAdmin(log: (line: string) => void): Promise<AdminResult> {
  // Issue 18's scale: a million users (seeded in the run, ~10 s), fewer rounds than at 100,000.
  const start = os.loadavg()[0]!;
  const measured = await runWorkerdBench<AdminResult>(
    path.resolve(import.meta.dirname, "../../packages/auth"),
    { USERS: "1000000", ROUNDS: "7" },
    "admin",
  );
  const result = { ...measured, load: { start, end: os.loadavg()[0]! } };
  for (const row of result.results) {
    log(`    ${row.name}: ${row.svcMs} ms (raw D1 ${row.rawMs} ms)`);
  }
  return result;
}
