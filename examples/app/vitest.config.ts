import { defineConfig } from "vitest/config";

/**
 * The example app's Node-side tests that run in `npm test`: the ones that
 * do not start `wrangler dev`. Every other file of `test/node` starts the app
 * under `wrangler dev` and runs in `npm run test:app` (vitest.app.config.ts).
 */
export const WITHOUT_DEV_SERVER = [
  // The app bundled as `wrangler deploy` bundles it, served by Miniflare as two isolates.
  "test/node/revocation.test.ts",
  // The deploy bundle's module list; nothing is served.
  "test/node/password-hashing.test.ts",
];

export default defineConfig({
  test: {
    name: "example",
    include: WITHOUT_DEV_SERVER,
    testTimeout: 30_000,
    hookTimeout: 90_000,
  },
});
