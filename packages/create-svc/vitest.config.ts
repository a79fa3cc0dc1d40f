import { defineConfig } from "vitest/config";

// template/test/ belongs to the apps create-svc writes; it runs in their own vitest.
export default defineConfig({
  test: { name: "create-svc", include: ["test/**/*.test.ts"], testTimeout: 60_000 },
});
