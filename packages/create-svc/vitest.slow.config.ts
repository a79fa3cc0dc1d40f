import { defineConfig } from "vitest/config";

/**
 * create-svc's slow suite (`npm run test:slow`): the React template built
 * with Vite and driven in Chromium, against this repository's source packages.
 */
export default defineConfig({
  test: {
    name: "create-svc-slow",
    include: ["test/slow/**/*.test.ts"],
    testTimeout: 600_000,
    hookTimeout: 300_000,
  },
});
