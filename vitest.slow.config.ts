import { defineConfig } from "vitest/config";

/**
 * The slow suite (`npm run test:slow`, its own step in `.ci/run` after
 * `npm test`): tests that need big data or long waits, kept out of
 * `npm test`'s time budget. Each package lists its own in
 * `<package>/vitest.slow.config.ts` (files under `test/slow/`).
 */
export default defineConfig({
  test: {
    projects: ["packages/server/vitest.slow.config.ts"],
  },
});
