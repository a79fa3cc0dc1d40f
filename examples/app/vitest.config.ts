import { defineConfig } from "vitest/config";

/** Node-side tests of the example app: they run it under `wrangler dev` and talk real HTTP. */
export default defineConfig({
  test: {
    name: "example",
    include: ["test/node/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 90_000,
  },
});
