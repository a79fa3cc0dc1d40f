import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import { SvcCliError } from "./errors.ts";

/**
 * Path of the CLI entry of the project's own wrangler (resolved from
 * `projectDir` as Node resolves its imports), run with the current Node:
 * never whatever `wrangler` comes first on `PATH`, never another copy.
 *
 * @throws {SvcCliError} `WRANGLER_MISSING`, naming the install command
 * @example
 * ```ts
 * spawn(process.execPath, [wranglerEntry("my-app"), "dev"]);
 * ```
 */
export function wranglerEntry(projectDir: string = process.cwd()): string {
  try {
    const from = createRequire(path.join(path.resolve(projectDir), "package.json"));
    return path.join(path.dirname(from.resolve("wrangler/package.json")), "bin/wrangler.js");
  } catch {
    // not installed for this project: say so below
  }
  throw new SvcCliError(
    "WRANGLER_MISSING",
    `svc: wrangler is not installed in ${path.resolve(projectDir)}. ` +
      "svc runs your project's own wrangler: npm install --save-dev wrangler",
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
  return promisify(execFile)(process.execPath, [wranglerEntry(cwd), ...args], {
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
