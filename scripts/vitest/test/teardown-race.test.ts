/**
 * `ignoreTeardownRace` (the root configs' `onUnhandledError`) over real
 * vitest runs: the teardown race alone no longer fails a passing run, any
 * other unhandled error still does.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const fixture = fileURLToPath(new URL("./fixture/", import.meta.url));
const vitestBin = fileURLToPath(
  new URL("../../../node_modules/vitest/vitest.mjs", import.meta.url),
);

function runFixture(file: string): { status: number | null; output: string } {
  const run = spawnSync(process.execPath, [vitestBin, "run", file], {
    cwd: fixture,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
    timeout: 60_000,
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe("ignoreTeardownRace", () => {
  it("lets a passing run end green when only the teardown race was caught, and says so", () => {
    const { status, output } = runFixture("teardown-race.test.ts");
    expect(output).toContain(
      'vitest: ignored a teardown race ([vitest-worker]: Closing rpc while "resolve" was pending)',
    );
    expect(output).not.toMatch(/Errors\s+1 error/);
    expect(status).toBe(0);
  });

  it("still fails a run on any other unhandled error", () => {
    const { status, output } = runFixture("rejects-unhandled.test.ts");
    expect(output).toContain("a real unhandled rejection");
    expect(output).toMatch(/Errors\s+1 error/);
    expect(status).toBe(1);
  });
});
