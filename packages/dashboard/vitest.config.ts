import { defineConfig } from "vitest/config";

/**
 * The dashboard's tests, in Node: unit tests of the UI's pure logic
 * (`test/unit`) and browser tests that drive Chromium against the example
 * app under `wrangler dev` (`test/browser`). The global setup starts one
 * example app and one Chromium that every browser file shares (a file that
 * needs other app settings starts its own); files run one at a time, which
 * is plenty for two cores.
 */
export default defineConfig({
  test: {
    name: "dashboard",
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    globalSetup: ["test/browser/support/global-setup.ts"],
  },
});
