import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";

const run = promisify(execFile);
const EXAMPLE = path.resolve(import.meta.dirname, "../../examples/app");

/** The example app's deployable bundle and its start-up cost. */
export interface BundleResult {
  rawBytes: number;
  gzipBytes: number;
  startupCpuMs: number;
  /** The biggest inputs of the bundle by bytes (from esbuild's metafile). */
  largestInputs: { path: string; bytes: number }[];
}

function wranglerBin(): string {
  return path.join(
    path.dirname(createRequire(import.meta.url).resolve("wrangler/package.json")),
    "bin/wrangler.js",
  );
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

/**
 * Builds the example app as `wrangler deploy` would (`--dry-run`), measures
 * raw and gzip size, lists what dominates, and profiles start-up with
 * `wrangler check startup`.
 */
export async function measureBundle(): Promise<BundleResult> {
  const out = await mkdtemp(path.join(tmpdir(), "svc-bundle-"));
  try {
    const env = {
      ...process.env,
      WRANGLER_SEND_METRICS: "false",
      CLOUDFLARE_CF_FETCH_ENABLED: "false",
    };
    await run(
      process.execPath,
      [
        wranglerBin(),
        "deploy",
        "--dry-run",
        "--outdir",
        out,
        "--metafile",
        path.join(out, "meta.json"),
      ],
      { cwd: EXAMPLE, env },
    );
    const files = await readdir(out);
    const script = files.find((file) => file.endsWith(".js"));
    if (!script) throw new Error(`wrangler produced no bundle in ${out}: ${files.join(", ")}`);
    const bytes = await readFile(path.join(out, script));
    const meta = JSON.parse(await readFile(path.join(out, "meta.json"), "utf8")) as {
      inputs: Record<string, { bytes: number }>;
    };
    const byPackage = new Map<string, number>();
    for (const [input, { bytes: size }] of Object.entries(meta.inputs)) {
      const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
      const key = match
        ? match[1]!
        : input.startsWith("../../packages/")
          ? input.split("/").slice(0, 4).join("/")
          : input;
      byPackage.set(key, (byPackage.get(key) ?? 0) + size);
    }
    const profileFile = path.join(out, "startup.cpuprofile");
    await run(process.execPath, [wranglerBin(), "check", "startup", "--outfile", profileFile], {
      cwd: EXAMPLE,
      env,
    });
    const profile = JSON.parse(await readFile(profileFile, "utf8"));
    return {
      rawBytes: bytes.length,
      gzipBytes: gzipSync(bytes).length,
      startupCpuMs: cpuMs(profile),
      largestInputs: [...byPackage.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8)
        .map(([input, size]) => ({ path: input, bytes: size })),
    };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}
