import { defineConfig } from "vitest/config";
import { ignoreTeardownRace } from "./scripts/vitest/teardown-race.ts";

/**
 * The slow suites (`npm run test:slow`, its own CI step after `npm test`):
 * tests that need big data, long waits or a full build. Each package lists
 * its own in `<package>/vitest.slow.config.ts`.
 */
export default defineConfig({
  test: {
    onUnhandledError: ignoreTeardownRace,
    projects: [
      "packages/cli/vitest.slow.config.ts",
      "packages/create-svc/vitest.slow.config.ts",
      "packages/server/vitest.slow.config.ts",
      "packages/testing/vitest.slow.config.ts",
      "examples/app/vitest.slow.config.ts",
      "bench/vitest.slow.config.ts",
    ],
  },
});
