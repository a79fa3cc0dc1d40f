import path from "node:path";
import { defineConfig } from "vitest/config";
import react from "../../packages/react/vitest.config.ts";

/** This folder's own copies of React 18 (npm installs them here: the root has React 19). */
const modules = path.join(import.meta.dirname, "node_modules");
const reactPackage = (name: "react" | "react-dom") => [
  { find: new RegExp(`^${name}$`), replacement: path.join(modules, name) },
  { find: new RegExp(`^${name}/(.*)$`), replacement: path.join(modules, name, "$1") },
];

/**
 * @svc/react's hook tests again, against React 18 (the low end of its peer
 * range): the same files, the same test app, with `react` and `react-dom`
 * resolved to this folder's React 18. React Testing Library is taken from
 * its ESM build, which vitest processes itself (Node cannot load it as
 * is), so its own `react` imports go through the same aliases: one React
 * in the whole run (react-18.test.ts checks it).
 */
export default defineConfig({
  resolve: {
    alias: [
      ...reactPackage("react"),
      ...reactPackage("react-dom"),
      {
        find: /^@testing-library\/react$/,
        replacement: path.resolve(
          import.meta.dirname,
          "../../node_modules/@testing-library/react/dist/@testing-library/react.esm.js",
        ),
      },
    ],
  },
  test: {
    // @svc/react's own environment and timeouts; paths from the repository's root.
    ...react.test,
    name: "react-18",
    // The hook tests and their test app are @svc/react's own; this folder adds the version check.
    root: path.resolve(import.meta.dirname, "../.."),
    include: ["packages/react/test/**/*.test.{ts,tsx}", "test-support/react-18/*.test.ts"],
    globalSetup: ["packages/react/test/global-setup.ts"],
  },
});
