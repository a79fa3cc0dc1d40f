import path from "node:path";
import type { Machine } from "../lib/machine.ts";
import { runWorkerdBench } from "../lib/workerd-bench.ts";

/** Median and 90th percentile of one measured step, in ms (workerd's clock: 1 ms steps). */
export interface HarnessFigure {
  medianMs: number;
  p90Ms: number;
}

/** What a test pays for `@svc/testing`, from packages/testing/test/bench/overhead.bench.ts. */
export interface HarnessResult {
  rounds: number;
  /** One mutation and one query sent straight to a running shard over JS RPC (the baseline). */
  direct: HarnessFigure;
  /** The same two calls through a harness whose shard already runs. */
  warmHarness: HarnessFigure;
  /** A test's whole harness work: `createTest()`, then the same two calls in its fresh shard. */
  freshTest: HarnessFigure;
  /** `createTest().run(...)` inserting one document in a fresh shard. */
  freshRun: HarnessFigure;
  /** `freshTest` − `direct`, medians: the harness's per-test overhead. */
  overheadMs: number;
  /** Where the figures come from when measured apart from the rest of results.json (`npm run bench -- harness`). */
  machine?: Machine;
}

/**
 * Runs the harness benchmark inside workerd (it lives with @svc/testing,
 * which has the plugin setup and the fixture app) and reads its result line.
 */
export async function measureHarness(log: (line: string) => void): Promise<HarnessResult> {
  const result = await runWorkerdBench<HarnessResult>(
    path.resolve(import.meta.dirname, "../../packages/testing"),
    { ROUNDS: "200" },
    "harness",
  );
  log(`    per-test overhead ${result.overheadMs} ms (fresh test ${result.freshTest.medianMs} ms)`);
  return result;
}
