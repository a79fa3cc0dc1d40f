import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";

/** Path of wrangler's CLI entry, run with the current Node. */
export function wranglerEntry(): string {
  return path.join(
    path.dirname(createRequire(import.meta.url).resolve("wrangler/package.json")),
    "bin/wrangler.js",
  );
}

/**
 * What every wrangler run from svc adds to the environment: no metrics
 * upload and no fetch of Cloudflare's `cf` object, neither of which works
 * offline and both of which only slow a local run down.
 *
 * @example
 * ```ts
 * spawn(process.execPath, [wranglerEntry(), "dev"], { env: { ...process.env, ...WRANGLER_QUIET_ENV } });
 * ```
 */
export const WRANGLER_QUIET_ENV = {
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
} as const;

/**
 * Runs one wrangler command to completion in `cwd` with the project's own
 * wrangler and Node and {@link WRANGLER_QUIET_ENV}; rejects with wrangler's
 * output when it exits non-zero.
 *
 * @example
 * ```ts
 * await runWrangler(["check", "startup", "--outfile", "startup.cpuprofile"], "examples/app");
 * ```
 */
export async function runWrangler(
  args: readonly string[],
  cwd: string,
): Promise<{ stdout: string; stderr: string }> {
  return promisify(execFile)(process.execPath, [wranglerEntry(), ...args], {
    cwd,
    env: { ...process.env, ...WRANGLER_QUIET_ENV },
    maxBuffer: 16 * 1024 * 1024,
  });
}

/**
 * Bundles the app of `wranglerConfig` into `outdir` exactly as `wrangler
 * deploy` would (`--dry-run`): `outdir/worker.js`, plus whatever `extraArgs`
 * ask for (e.g. `--metafile`).
 *
 * @example
 * ```ts
 * await buildForDeploy("bench/app/wrangler.jsonc", outdir); // then serve outdir/worker.js
 * ```
 */
export async function buildForDeploy(
  wranglerConfig: string,
  outdir: string,
  extraArgs: readonly string[] = [],
): Promise<void> {
  await runWrangler(
    ["deploy", "--dry-run", "--outdir", outdir, ...extraArgs, "--config", wranglerConfig],
    path.dirname(wranglerConfig),
  );
}
