import { defineConfig } from "vitest/config";

/**
 * The example app under `wrangler dev` (`npm run test:app`, its own CI step
 * after `npm test`, which stays within 10 minutes on the 2-core CI machine
 * without it). `maxWorkers: "100%"` as in vitest.config.ts: a file mostly
 * waits on `wrangler dev` and workerd in other processes.
 */
export default defineConfig({
  test: {
    maxWorkers: "100%",
    projects: ["examples/app/vitest.app.config.ts"],
  },
});
