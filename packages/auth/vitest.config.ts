import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [
    cloudflareTest(({ inject }) => ({
      wrangler: { configPath: "./test/wrangler.jsonc" },
      miniflare: {
        bindings: {
          SITEVERIFY_URL: inject("siteverifyUrl"),
          BUNDLE_MODULES: inject("bundleModules"),
          NODE_PASSWORD_HASH: inject("nodePasswordHash"),
        },
      },
    })),
  ],
  // The first request loads better-auth and every plugin into workerd: seconds, once.
  // isolate: false: the project's files share one workerd and its module graph, so
  // each file no longer loads svc anew (server: 109 s → 40 s). Files share storage
  // too: each uses shard keys, users and ids of its own (see CONTRIBUTING.md).
  test: {
    name: "auth",
    isolate: false,
    globalSetup: ["./vitest/global-setup.ts"],
    testTimeout: 30_000,
  },
});
