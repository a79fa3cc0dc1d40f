import { defineConfig } from "vitest/config";

/**
 * The bench worker's slow suite (`npm run test:slow`): its gates under
 * sustained load, served by workerd as `npm run bench` serves them.
 */
export default defineConfig({
  test: {
    name: "bench-slow",
    root: import.meta.dirname,
    include: ["test/**/*.test.ts"],
    testTimeout: 600_000,
    hookTimeout: 180_000,
  },
});
