import { defineConfig } from "vitest/config";

/**
 * The dashboard's unit tests, in Node: the UI's pure logic (`test/unit`).
 * Its browser tests (`test/browser`, Chromium against the example app) are a
 * project of their own, `dashboard-browser` (vitest.browser.config.ts), run
 * by `npm run test:browser` as its own CI step: they take ~3.5 of the
 * 2-core CI machine's minutes, which kept `npm test` over its 10.
 */
export default defineConfig({
  test: {
    name: "dashboard",
    include: ["test/unit/**/*.test.ts"],
  },
});
