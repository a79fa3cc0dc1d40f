import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { deployBundle, runWrangler } from "@svc/cli";
import { type CpuProfile, cpuMs, topFrames } from "../lib/cpu-profile.ts";

const EXAMPLE = path.resolve(import.meta.dirname, "../../examples/app");

/** The example app's deployable bundle and its start-up cost. */
export interface BundleResult {
  rawBytes: number;
  gzipBytes: number;
  startupCpuMs: number;
  /** Where start-up CPU went: the frames with the most self time (ms), idle left out. */
  startupFrames: { frame: string; ms: number }[];
  /** The biggest inputs of the bundle by package, before minification. */
  largestInputs: { path: string; bytes: number }[];
}

/** `NAME:value` pairs of a `.dev.vars` file (comments and blank lines skipped). */
async function devVars(file: string): Promise<string[]> {
  const text = await readFile(file, "utf8");
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#") && line.includes("="))
    .map((line) => line.replace("=", ":"));
}

function packageOf(input: string): string {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  if (match) return match[1]!;
  const local = /packages\/([^/]+)\//.exec(input);
  return local ? `@svc/${local[1]}` : "examples/app";
}

/**
 * Builds the example app as `wrangler deploy` would, measures raw and gzip
 * size, lists what dominates, and profiles start-up with `wrangler check startup`.
 */
export async function measureBundle(): Promise<BundleResult> {
  const bundle = await deployBundle(path.join(EXAMPLE, "wrangler.jsonc"));
  const bytes = Buffer.from(bundle.code);
  const byPackage = new Map<string, number>();
  for (const [input, size] of Object.entries(bundle.inputs)) {
    byPackage.set(packageOf(input), (byPackage.get(packageOf(input)) ?? 0) + size);
  }
  const out = await mkdtemp(path.join(tmpdir(), "svc-startup-"));
  try {
    const profileFile = path.join(out, "startup.cpuprofile");
    // Start-up profiling evaluates the module without .dev.vars, and the
    // example app refuses to start without its secrets (as it should): pass
    // the local defaults as deploy-time vars.
    const vars = await devVars(path.join(EXAMPLE, ".dev.vars"));
    const deployArgs = [...vars, "PUBLIC_URL:http://127.0.0.1:8787"].map((v) => `--var ${v}`);
    await runWrangler(
      ["check", "startup", "--outfile", profileFile, `--args=${deployArgs.join(" ")}`],
      EXAMPLE,
    );
    const profile = JSON.parse(await readFile(profileFile, "utf8")) as CpuProfile;
    return {
      rawBytes: bytes.length,
      gzipBytes: gzipSync(bytes).length,
      startupCpuMs: cpuMs(profile),
      startupFrames: topFrames(profile, 8),
      largestInputs: [...byPackage.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 10)
        .map(([input, size]) => ({ path: input, bytes: size })),
    };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}
