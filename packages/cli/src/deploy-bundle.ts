import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildForDeploy } from "./wrangler.ts";

/** What `wrangler deploy` would upload for an app. */
export interface DeployBundle {
  /** The worker script. */
  code: string;
  /** Source modules in the bundle, from the `// path` comment esbuild writes above each. */
  modules: string[];
  /** esbuild's metafile inputs: source path → bytes. */
  inputs: Record<string, number>;
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
    await buildForDeploy(wranglerConfig, outdir, ["--metafile", path.join(outdir, "meta.json")]);
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
