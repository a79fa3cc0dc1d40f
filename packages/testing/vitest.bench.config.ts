import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

/** The harness's per-test overhead (test/bench/overhead.bench.ts), read by `npm run bench -- harness`. */
export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: "./test/wrangler.jsonc" },
      miniflare: { bindings: { BENCH_ROUNDS: process.env.ROUNDS ?? "200" } },
    }),
  ],
  test: { name: "testing-bench", include: ["test/bench/*.bench.ts"], testTimeout: 600_000 },
});
