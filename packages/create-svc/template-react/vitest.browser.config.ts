import { defineConfig } from "vitest/config";

/**
 * The browser test (`npm run test:browser`): the built app (`vite build`) under
 * `wrangler dev`, driven in Chromium by playwright-core. Chromium comes from
 * `CHROMIUM_PATH`, else /usr/bin/chromium, else Playwright's own
 * (`npx playwright install chromium`).
 */
export default defineConfig({
  test: {
    include: ["test/browser/**/*.browser.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
