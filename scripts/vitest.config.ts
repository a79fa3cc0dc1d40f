import { defineConfig } from "vitest/config";

/** The repository's own tooling (scripts/): what CI relies on, tested like a package. */
export default defineConfig({
  test: {
    name: "scripts",
    include: ["vitest/test/*.test.ts"],
    testTimeout: 90_000,
  },
});
