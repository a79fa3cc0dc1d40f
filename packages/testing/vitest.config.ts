import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [cloudflareTest({ wrangler: { configPath: "./test/wrangler.jsonc" } })],
  // test/slow/ (the suite under vitest --watch) runs in `npm run test:slow`.
  test: {
    name: "testing",
    include: ["test/**/*.test.ts"],
    exclude: [...configDefaults.exclude, "test/slow/**"],
    testTimeout: 20_000,
  },
});
