import { defineConfig } from "vitest/config";

/**
 * The dashboard's browser tests (`npm run test:browser`): Chromium drives the
 * dashboard against the example app under `wrangler dev`. The global setup
 * starts one example app and one Chromium that every browser file shares (a
 * file that needs other app settings starts its own); files run one at a
 * time, which is plenty for two cores.
 */
export default defineConfig({
  test: {
    name: "dashboard-browser",
    include: ["test/browser/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    globalSetup: ["test/browser/support/global-setup.ts"],
  },
});
