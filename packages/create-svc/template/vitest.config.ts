import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: "./wrangler.jsonc" },
      // Test-only secrets: tests never read .dev.vars.
      miniflare: {
        bindings: {
          AUTH_SECRET: "test-only-auth-secret-0123456789abcdefghij",
          SVC_ADMIN_TOKEN: "test-only-admin-token-0123456789abcdefghij",
          SVC_STORAGE_SECRET: "test-only-storage-secret-0123456789abcdefghij",
          // One short line per call in the test output (production prints JSON).
          SVC_LOG_FORMAT: "text",
        },
      },
    }),
  ],
  // The first request loads better-auth into workerd and creates the auth tables: seconds,
  // once, but over 30 s on a busy two-core machine (seen in the release test).
  test: { testTimeout: 90_000 },
});
