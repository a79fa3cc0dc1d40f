import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startVitest, type Vitest } from "vitest/node";

/**
 * The harness under `vitest --watch`, rerun in the same process: the
 * plugin's known pitfalls were a second run failing where `runInDurableObject`
 * (which `t.run` uses) ran in the first (workers-sdk #9913) and SQLite files
 * left between tests (#5629). The harness suite asserts exact rows under
 * fixed shard keys and users, so a run that saw another's rows fails too.
 * (With plugin 1.5 each run starts on empty storage; within a run, tests and
 * files sharing a workerd are kept apart by `createTest`'s own names.)
 */
const PACKAGE = path.resolve(import.meta.dirname, "../..");
const SUITE = path.join(PACKAGE, "test/harness.test.ts");
let vitest: Vitest;

/** What the watching vitest's last run answered. */
function lastRun() {
  const files = vitest.state.getFiles();
  return {
    files: files.length,
    tests: files.flatMap((file) =>
      file.tasks.flatMap((suite) => ("tasks" in suite ? suite.tasks : [suite])),
    ).length,
    failed: vitest.state.getCountOfFailedTests(),
    errors: vitest.state.getUnhandledErrors().length,
    passed: files.every((file) => file.result?.state === "pass"),
  };
}

beforeAll(async () => {
  vitest = await startVitest("test", [SUITE], {
    root: PACKAGE,
    config: path.join(PACKAGE, "vitest.config.ts"),
    watch: true,
    reporters: ["dot"],
  });
}, 300_000);

afterAll(async () => {
  await vitest?.close();
});

describe("@svc/testing under vitest --watch", () => {
  it("passes the first run and every rerun in the same workerd", async () => {
    const first = lastRun();
    expect(first).toMatchObject({ files: 1, failed: 0, errors: 0, passed: true });
    expect(first.tests).toBeGreaterThan(5);
    for (let rerun = 0; rerun < 2; rerun++) {
      await vitest.rerunTestSpecifications(vitest.getModuleSpecifications(SUITE));
      expect(lastRun()).toEqual(first);
    }
  });
});
