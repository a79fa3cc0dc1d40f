import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";

/**
 * Bundles a worker exactly as `wrangler deploy` would (`--dry-run --outdir`)
 * and lists the source modules in the bundle, read from the `// path` comment
 * esbuild writes above each module. This is what a deploy ships, so tests can
 * check which implementation of a package was picked (export conditions).
 */
export async function bundledModules(wranglerConfig: string): Promise<string[]> {
  const wrangler = join(
    dirname(createRequire(import.meta.url).resolve("wrangler/package.json")),
    "bin/wrangler.js",
  );
  const outdir = await mkdtemp(join(tmpdir(), "svc-auth-bundle-"));
  try {
    await promisify(execFile)(
      process.execPath,
      [wrangler, "deploy", "--dry-run", "--outdir", outdir, "--config", wranglerConfig],
      { env: { ...process.env, WRANGLER_SEND_METRICS: "false" }, maxBuffer: 16 * 1024 * 1024 },
    );
    const bundle = await readFile(join(outdir, "worker.js"), "utf8");
    return [...bundle.matchAll(/^\/\/ (\S+\.[cm]?[jt]s)$/gm)].map((match) => match[1] ?? "");
  } finally {
    await rm(outdir, { recursive: true, force: true });
  }
}
