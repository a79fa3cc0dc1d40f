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
  test: { name: "auth", globalSetup: ["./vitest/global-setup.ts"], testTimeout: 30_000 },
});
