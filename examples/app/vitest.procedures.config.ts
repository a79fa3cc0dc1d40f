import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

/**
 * The example app's procedure tests (`npm test`): inside workerd on the app's
 * own worker and shard class, through `@svc/testing` (docs/testing.md).
 */
export default defineConfig({
  plugins: [cloudflareTest({ wrangler: { configPath: "./wrangler.jsonc" } })],
  test: {
    name: "example-procedures",
    include: ["test/procedures/**/*.test.ts"],
    testTimeout: 60_000,
  },
});
