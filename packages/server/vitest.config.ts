import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { configDefaults, defineConfig } from "vitest/config";
export default defineConfig({
  plugins: [cloudflareTest({ wrangler: { configPath: "./test/wrangler.jsonc" } })],
  // test/slow/ is the slow suite (vitest.slow.config.ts, `npm run test:slow`).
  test: { name: "server", exclude: [...configDefaults.exclude, "test/slow/**"] },
});
