import { defineConfig } from "vitest/config";

/**
 * The browser suite (`npm run test:browser`, its own CI step after
 * `npm test`): every dashboard screen driven in Debian's Chromium, with
 * axe-core, at laptop and phone width.
 */
export default defineConfig({
  test: {
    projects: ["packages/dashboard/vitest.browser.config.ts"],
  },
});
