/**
 * Builds every package under packages/ for publishing: `tsc` emits ESM `.js`,
 * `.d.ts` and source maps into each package's `dist/` (relative `.ts`
 * specifiers rewritten to `.js` in the JavaScript by
 * `rewriteRelativeImportExtensions`, and here in the declarations, which tsc
 * leaves alone), and the dashboard builds its assets. Inside the repository
 * nothing needs this: exports point at `src/` and tests run against source.
 *
 * Why tsc itself and not a bundler: the packages are libraries for bundling
 * apps (wrangler/esbuild bundle them again), so one file per module is what
 * users want, and the compiler that type-checks the repository is the one
 * that emits its declarations — no second type pipeline to disagree with it.
 *
 * Usage: `npm run build` (all packages, progress on stderr).
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
/** Dependency order: each package after the packages it imports. */
const TSC_PACKAGES = [
  "server",
  "ratelimit",
  "client",
  "testing",
  "react",
  "auth",
  "cli",
  "create-svc",
];

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) yield* files(full);
    else yield full;
  }
}

/** `from "./x.ts"` → `from "./x.js"` in declarations (relative specifiers only). */
export function rewriteDeclarationSpecifiers(text: string): string {
  return text.replace(
    /((?:from|import)\s*\(?\s*["'])(\.{1,2}\/[^"']*?)\.ts(["'])/g,
    (_match, head: string, specifier: string, quote: string) => `${head}${specifier}.js${quote}`,
  );
}

function buildWithTsc(name: string): void {
  const dir = path.join(ROOT, "packages", name);
  try {
    statSync(path.join(dir, "tsconfig.build.json"));
  } catch {
    return;
  }
  const started = performance.now();
  rmSync(path.join(dir, "dist"), { recursive: true, force: true });
  execFileSync(process.execPath, [require_("typescript/bin/tsc"), "-p", "tsconfig.build.json"], {
    cwd: dir,
    stdio: "inherit",
  });
  for (const file of files(path.join(dir, "dist"))) {
    if (!file.endsWith(".d.ts")) continue;
    const text = readFileSync(file, "utf8");
    const rewritten = rewriteDeclarationSpecifiers(text);
    if (rewritten !== text) writeFileSync(file, rewritten);
  }
  const ms = Math.round(performance.now() - started);
  process.stderr.write(`svc build: @svc/${name} → dist/ in ${ms} ms\n`);
}

function require_(specifier: string): string {
  return path.join(ROOT, "node_modules", specifier);
}

const started = performance.now();
process.stderr.write("svc build: @svc/dashboard assets\n");
execFileSync("npm", ["run", "build", "--silent", "--workspace", "packages/dashboard"], {
  cwd: ROOT,
  stdio: "inherit",
});
for (const name of TSC_PACKAGES) buildWithTsc(name);
process.stderr.write(`svc build: done in ${Math.round(performance.now() - started)} ms\n`);
