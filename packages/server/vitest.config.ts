import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { configDefaults, defineConfig } from "vitest/config";
export default defineConfig({
  plugins: [cloudflareTest({ wrangler: { configPath: "./test/wrangler.jsonc" } })],
  // test/slow/ is the slow suite (vitest.slow.config.ts, `npm run test:slow`).
  // 20 s per test: property tests (rls-parity, query-campaign) run 5–10 s when
  // the 2-core CI machine also runs a browser file; 5 s made them flaky.
  // isolate: false: the project's files share one workerd and its module graph, so
  // each file no longer loads svc anew (server: 109 s → 40 s). Files share storage
  // too: each uses shard keys, users and ids of its own (see CONTRIBUTING.md).
  test: {
    name: "server",
    isolate: false,
    exclude: [...configDefaults.exclude, "test/slow/**"],
    testTimeout: 20_000,
  },
});
