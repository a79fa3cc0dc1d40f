import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

/**
 * The server's slow suite (`npm run test:slow`): tests that need big data or
 * long waits, in the same worker as the fast suite.
 */
export default defineConfig({
  plugins: [cloudflareTest({ wrangler: { configPath: "./test/wrangler.jsonc" } })],
  test: {
    name: "server-slow",
    include: ["test/slow/**/*.test.ts"],
    testTimeout: 900_000,
    hookTimeout: 900_000,
  },
});
