import { defineConfig } from "vitest/config";

/**
 * The example app's slow suite (`npm run test:slow`): tests that start
 * extra servers beside `wrangler dev` (a real Prometheus), too slow for
 * `npm test`.
 */
export default defineConfig({
  root: import.meta.dirname,
  test: {
    name: "example-slow",
    include: ["test/slow/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 90_000,
  },
});
