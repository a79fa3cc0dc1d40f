import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

/** `npm run bench:admin`: the admin list benchmark (test/bench/admin-list.bench.ts), not part of `npm test`. */
export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: "./test/wrangler.jsonc" },
      miniflare: {
        bindings: {
          BENCH_USERS: process.env.USERS ?? "100000",
          BENCH_ROUNDS: process.env.ROUNDS ?? "15",
        },
      },
    }),
  ],
  test: { name: "auth-bench", include: ["test/bench/*.bench.ts"], testTimeout: 600_000 },
});
