import { defineConfig } from "vitest/config";

/**
 * @svc/testing's slow suite (`npm run test:slow`): the harness suite under a
 * watching vitest, rerun in the same workerd (test/slow/watch-rerun.test.ts).
 */
export default defineConfig({
  test: {
    name: "testing-slow",
    include: ["test/slow/**/*.test.ts"],
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
