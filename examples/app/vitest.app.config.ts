import { configDefaults, defineConfig } from "vitest/config";
import { WITHOUT_DEV_SERVER } from "./vitest.config.ts";

/**
 * The example app under `wrangler dev` (`npm run test:app`, its own CI step
 * after `npm test`): each file starts the app as `npm start` does, with fresh
 * local state, and talks real HTTP and WebSockets to it. A new file in
 * `test/node` lands here unless vitest.config.ts lists it.
 */
export default defineConfig({
  root: import.meta.dirname,
  test: {
    name: "example-app",
    include: ["test/node/**/*.test.ts"],
    exclude: [...configDefaults.exclude, ...WITHOUT_DEV_SERVER],
    testTimeout: 30_000,
    hookTimeout: 90_000,
  },
});
