import { defineConfig } from "vitest/config";

/** The long suite (`npm run test:soak`): load against `wrangler dev`. */
export default defineConfig({
  root: import.meta.dirname,
  test: {
    name: "soak",
    include: ["test/soak/**/*.test.ts"],
    testTimeout: 600_000,
    hookTimeout: 90_000,
  },
});
