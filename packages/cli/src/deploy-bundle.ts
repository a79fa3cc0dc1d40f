import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

/** What `wrangler deploy` would upload for an app. */
export interface DeployBundle {
  /** The worker script. */
  code: string;
  /** Source modules in the bundle, from the `// path` comment esbuild writes above each. */
  modules: string[];
  /** esbuild's metafile inputs: source path → bytes. */
  inputs: Record<string, number>;
}

/** Path of wrangler's CLI entry, run with the current Node. */
export function wranglerEntry(): string {
  return path.join(
    path.dirname(createRequire(import.meta.url).resolve("wrangler/package.json")),
    "bin/wrangler.js",
  );
}

/**
 * Bundles an app exactly as `wrangler deploy` would (`--dry-run`), so tests
 * and benchmarks see what a deploy ships: which implementation of a package
 * was picked (export conditions), how big it is, what dominates.
 *
 * @example
 * ```ts
 * const { modules } = await deployBundle("examples/app/wrangler.jsonc");
 * modules.some((m) => m.endsWith("password.node.mjs")); // native scrypt
 * ```
 */
export async function deployBundle(wranglerConfig: string): Promise<DeployBundle> {
  const outdir = await mkdtemp(path.join(tmpdir(), "svc-bundle-"));
  try {
    await promisify(execFile)(
      process.execPath,
      [
        wranglerEntry(),
        "deploy",
        "--dry-run",
        "--outdir",
        outdir,
        "--metafile",
        path.join(outdir, "meta.json"),
        "--config",
        wranglerConfig,
      ],
      {
        cwd: path.dirname(wranglerConfig),
        env: {
          ...process.env,
          WRANGLER_SEND_METRICS: "false",
          CLOUDFLARE_CF_FETCH_ENABLED: "false",
        },
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    const code = await readFile(path.join(outdir, "worker.js"), "utf8");
    const meta = JSON.parse(await readFile(path.join(outdir, "meta.json"), "utf8")) as {
      inputs: Record<string, { bytes: number }>;
    };
    return {
      code,
      modules: [...code.matchAll(/^\/\/ (\S+\.[cm]?[jt]s)$/gm)].map((match) => match[1] ?? ""),
      inputs: Object.fromEntries(
        Object.entries(meta.inputs).map(([input, { bytes }]) => [input, bytes]),
      ),
    };
  } finally {
    await rm(outdir, { recursive: true, force: true });
  }
}
