import { defineConfig } from "vitest/config";
import { ignoreTeardownRace } from "./scripts/vitest/teardown-race.ts";

/**
 * Every package's tests and the example app's, as one run (`npm test`),
 * except the example app under `wrangler dev` (`npm run test:app`,
 * vitest.app.config.ts), its own CI step so that `npm test` stays within
 * 10 minutes on the 2-core CI machine.
 * `maxWorkers: "100%"`: one test file per core. vitest's default (cores − 1)
 * ran files one at a time on the 2-core CI machine, although most of a file's
 * time is spent waiting on workerd, wrangler or Chromium in other processes:
 * on a clean clone, 880 s with the default against 737 s with two workers.
 */
export default defineConfig({
  test: {
    onUnhandledError: ignoreTeardownRace,
    maxWorkers: "100%",
    projects: [
      "packages/*/vitest.config.ts",
      "test-support/*/vitest.config.ts",
      "examples/*/vitest.config.ts",
      "examples/app/vitest.procedures.config.ts",
      "scripts/vitest.config.ts",
    ],
  },
});
