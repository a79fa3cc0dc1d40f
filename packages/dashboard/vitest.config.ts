import { defineConfig } from "vitest/config";

/**
 * The dashboard's tests, in Node: unit tests of the UI's pure logic
 * (`test/unit`) and browser tests that drive Chromium against the example
 * app under `wrangler dev` (`test/browser`). Files run one at a time: each
 * browser file starts its own wrangler and Chromium, which is plenty for two
 * cores.
 */
export default defineConfig({
  test: {
    name: "dashboard",
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
