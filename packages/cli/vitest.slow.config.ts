import { defineConfig } from "vitest/config";

/**
 * The CLI package's slow suite (`npm run test:slow`): the packages as a user
 * receives them (build, `npm pack`, publint, attw, import from outside the
 * repository), about two minutes, so it runs beside the release test rather
 * than in `npm test`.
 */
export default defineConfig({
  test: {
    name: "cli-slow",
    include: ["test/slow/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 600_000,
  },
});
