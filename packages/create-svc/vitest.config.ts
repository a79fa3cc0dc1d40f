import { configDefaults, defineConfig } from "vitest/config";

// template/test/ belongs to the apps create-svc writes; it runs in their own vitest.
// test/slow/ (the React template in Chromium) runs in `npm run test:slow`.
export default defineConfig({
  test: {
    name: "create-svc",
    include: ["test/**/*.test.ts"],
    exclude: [...configDefaults.exclude, "test/slow/**"],
    testTimeout: 60_000,
  },
});
