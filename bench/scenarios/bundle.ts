import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { deployBundle, wranglerEntry } from "@svc/cli";

const run = promisify(execFile);
const EXAMPLE = path.resolve(import.meta.dirname, "../../examples/app");

/** The example app's deployable bundle and its start-up cost. */
export interface BundleResult {
  rawBytes: number;
  gzipBytes: number;
  startupCpuMs: number;
  /** The biggest inputs of the bundle by package, before minification. */
  largestInputs: { path: string; bytes: number }[];
}

/** Total sampled CPU time of a V8 `.cpuprofile` (samples not on the idle node). */
function cpuMs(profile: {
  nodes: { id: number; callFrame: { functionName: string } }[];
  samples: number[];
  timeDeltas: number[];
}): number {
  const idle = new Set(
    profile.nodes.filter((node) => node.callFrame.functionName === "(idle)").map((node) => node.id),
  );
  let micros = 0;
  profile.samples.forEach((sample, index) => {
    if (!idle.has(sample)) micros += profile.timeDeltas[index] ?? 0;
  });
  return micros / 1000;
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
    const env = {
      ...process.env,
      WRANGLER_SEND_METRICS: "false",
      CLOUDFLARE_CF_FETCH_ENABLED: "false",
    };
    await run(process.execPath, [wranglerEntry(), "check", "startup", "--outfile", profileFile], {
      cwd: EXAMPLE,
      env,
    });
    return {
      rawBytes: bytes.length,
      gzipBytes: gzipSync(bytes).length,
      startupCpuMs: cpuMs(JSON.parse(await readFile(profileFile, "utf8"))),
      largestInputs: [...byPackage.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 10)
        .map(([input, size]) => ({ path: input, bytes: size })),
    };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}
