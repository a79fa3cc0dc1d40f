import { defineConfig } from "vitest/config";

/**
 * @svc/react's hook tests: React Testing Library in happy-dom (a DOM for React
 * to render into, in Node), against the test app under `wrangler dev` over
 * real HTTP and WebSockets.
 */
export default defineConfig({
  test: {
    name: "react",
    environment: "happy-dom",
    // The app runs on another origin (a free port); a browser page would be served by it.
    environmentOptions: { happyDOM: { settings: { fetch: { disableSameOriginPolicy: true } } } },
    include: ["test/**/*.test.{ts,tsx}"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 90_000,
  },
});
