import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { BenchApp } from "./bench-app.ts";
import { bundleSources } from "./bundle-sources.ts";
import { type CpuProfile, selfSamples } from "./cpu-profile.ts";
import { allocatedBytes } from "./heap-profile.ts";
import { attachProfiler, type IsolateProfiler } from "./inspector.ts";
import { DEFAULT_PLAN, drive, type Target } from "./load.ts";

/** Self time per request of every function, for each target profiled side by side. */
export interface ProfileTable {
  targets: {
    name: string;
    requests: number;
    /** Non-idle samples of the isolate per request. */
    samplesPerRequest: number;
    /** The worker's workerd CPU per request over the same windows (/proc), µs, profiler included. */
    processUsPerRequest: number;
    /** Bytes the isolate allocated per request (sampled; objects since collected included). */
    bytesPerRequest: number;
  }[];
  /**
   * Every function seen, with its self time per request (µs) under each
   * target, in target order: its share of the target's samples times the
   * workerd CPU per request measured over the same windows.
   */
  rows: RankedRow[];
  /** Every function that allocated, with the bytes it allocated itself per request under each target. */
  allocations: RankedRow[];
}

/** One function of a profile and its figure per request under each target, in target order. */
export interface RankedRow {
  frame: string;
  source: string;
  values: number[];
}

/** A profile's call frame, as both of V8's profilers name it. */
type Frame = { functionName: string; lineNumber: number; url?: string };

/** How long each target is profiled: rounds interleave the targets, as {@link compare} does. */
export interface ProfilePlan {
  rounds: number;
  seconds: number;
}

/**
 * Profiles the worker's isolate (V8's CPU profiler through workerd's
 * inspector) under each target's load in turn, `plan.rounds` rounds of
 * `plan.seconds`, and answers every function's self time per request under
 * each: the same request path's cost split by function, with a baseline
 * (the first or any other target) profiled in the same run beside it. Frames
 * are named by function and source file (from the bundle's module comments).
 * Then one window per target under V8's sampling heap profiler instead: the
 * bytes each function allocates per request (the garbage the collector's
 * share of the CPU follows), a figure that barely moves with the machine's
 * load. The app must have been started with `{ inspect: true }`.
 *
 * @example
 * ```ts
 * const app = await startBenchApp({ inspect: true });
 * const table = await profileTargets(app, [restTarget, honoTarget], { rounds: 3, seconds: 4 });
 * ```
 */
export async function profileTargets(
  app: BenchApp,
  targets: readonly Target[],
  plan: ProfilePlan,
  log: (line: string) => void = console.error,
): Promise<ProfileTable> {
  const inspector = app.inspectorUrl;
  if (!inspector) throw new Error("profileTargets needs startBenchApp({ inspect: true })");
  const sourceOf = await bundleSources(app.bundleFile);
  const selfCount = targets.map(() => new Map<string, number>());
  const requests = targets.map(() => 0);
  const processMs = targets.map(() => 0);
  const sources = new Map<string, string>();
  const allocated: { bytes: Map<string, number>; served: number }[] = [];
  const frameKey = (frame: Frame) => {
    const inBundle = frame.url?.endsWith("worker.js") === true;
    const name = frame.functionName || "(anonymous)";
    const key = inBundle ? `${name}@${frame.lineNumber}` : name;
    sources.set(key, inBundle ? `${sourceOf(frame.lineNumber)}` : frame.url || "");
    return key;
  };
  const profiler = await attachProfiler(inspector);
  try {
    // The warm-up runs under the profiler (its profile dropped): code V8 optimizes while no
    // profiler runs calls native functions (SQL `exec`, `Response`) so that the sampler charges
    // their time to the calling JS function, and the table would split it by optimization timing.
    await profiler.record(async () => {
      for (const target of targets) await drive(target, DEFAULT_PLAN, 2);
    });
    for (let round = 0; round < plan.rounds; round++) {
      for (const [index, target] of targets.entries()) {
        const { profile, served, cpuMs } = await profileOnce(app, profiler, target, plan.seconds);
        processMs[index]! += cpuMs;
        requests[index]! += served;
        await keepRaw(profile, `${target.name.replace(/[^\w-]+/g, "-")}-${round + 1}`);
        for (const [key, samples] of selfSamples(profile, frameKey)) {
          selfCount[index]!.set(key, (selfCount[index]!.get(key) ?? 0) + samples);
        }
        log(`    profile round ${round + 1}/${plan.rounds} ${target.name}: ${served} requests`);
      }
    }
    for (const target of targets) {
      const window = await sampleOnce(app, profiler, target, plan.seconds, frameKey);
      allocated.push(window);
      log(`    allocation window ${target.name}: ${window.served} requests`);
    }
  } finally {
    profiler.close();
  }
  const keys = new Set(selfCount.flatMap((map) => [...map.keys()]));
  const totals = selfCount.map((map) => [...map.values()].reduce((sum, n) => sum + n, 0));
  const processUs = processMs.map((ms, index) => (ms * 1000) / Math.max(1, requests[index]!));
  const allocatingKeys = new Set(allocated.flatMap(({ bytes }) => [...bytes.keys()]));
  return {
    targets: targets.map((target, index) => ({
      name: target.name,
      requests: requests[index]!,
      samplesPerRequest: totals[index]! / Math.max(1, requests[index]!),
      processUsPerRequest: processUs[index]!,
      bytesPerRequest: perRequest(
        [...allocated[index]!.bytes.values()].reduce((sum, n) => sum + n, 0),
        allocated[index]!.served,
      ),
    })),
    rows: [...keys].map((key) => ({
      frame: key.replace(/@\d+$/, ""),
      source: sources.get(key) ?? "",
      values: selfCount.map(
        (map, index) => ((map.get(key) ?? 0) / Math.max(1, totals[index]!)) * processUs[index]!,
      ),
    })),
    allocations: [...allocatingKeys].map((key) => ({
      frame: key.replace(/@\d+$/, ""),
      source: sources.get(key) ?? "",
      values: allocated.map(({ bytes, served }) => perRequest(bytes.get(key) ?? 0, served)),
    })),
  };
}

/** One target driven for `seconds` under the profiler: its profile, requests served and workerd CPU. */
async function profileOnce(
  app: BenchApp,
  profiler: IsolateProfiler,
  target: Target,
  seconds: number,
): Promise<{ profile: CpuProfile; served: number; cpuMs: number }> {
  let served = 0;
  // As in `compare`: from a collected heap, and the target's own garbage collected in its window.
  await app.settle();
  const before = await app.workerCpuMs();
  const profile = await profiler.record(async () => {
    served = await driveAllOk(target, seconds);
    await app.settle();
  });
  return { profile, served, cpuMs: (await app.workerCpuMs()) - before };
}

/** One target driven for `seconds` under the heap sampler: bytes allocated by frame, and requests served. */
async function sampleOnce(
  app: BenchApp,
  profiler: IsolateProfiler,
  target: Target,
  seconds: number,
  frameKey: (frame: Frame) => string,
): Promise<{ bytes: Map<string, number>; served: number }> {
  let served = 0;
  await app.settle();
  const profile = await profiler.sampleHeap(async () => {
    served = await driveAllOk(target, seconds);
  });
  return { bytes: allocatedBytes(profile, frameKey), served };
}

/** Bytes per request of a window that served `served` requests. */
function perRequest(bytes: number, served: number): number {
  return bytes / Math.max(1, served);
}

/** Drives `target` for `seconds` and answers the requests served; any failed request fails the profile. */
async function driveAllOk(target: Target, seconds: number): Promise<number> {
  const result = await drive(target, DEFAULT_PLAN, seconds);
  const failed = result.non2xx + result.errors;
  if (failed > 0) throw new Error(`${target.name}: ${failed} failed requests`);
  return result.requests.total;
}

/** With `BENCH_PROFILE_DIR` set, keeps a raw profile there, for DevTools (Performance → Load profile). */
async function keepRaw(profile: CpuProfile, name: string): Promise<void> {
  const dir = process.env.BENCH_PROFILE_DIR;
  if (!dir) return;
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
}

/** How one ranked table is drawn: rank by a target's figure, compare with the baseline's. */
interface Ranking {
  /** The target (index) whose figures rank the rows. */
  rankBy: number;
  /** The target (index) every other is compared with. */
  baseline: number;
  /** Rows shown one by one; the rest are summed in one row. */
  top: number;
}

/** A total under the ranked rows: a figure per target, compared with the baseline's or not. */
interface FooterRow {
  label: string;
  values: number[];
  compare: boolean;
  /** Default: the table's own format. */
  format?: (value: number) => string;
}

/**
 * A ranked table as Markdown: the `top` rows by the `rankBy` target's
 * figure, each target's figure beside it and the difference to `baseline`,
 * the rest summed, then `footer` rows (each figure per target, with its
 * difference when `compare` is set). Both tables of a profile (self time,
 * bytes allocated) are drawn by it.
 */
function renderRanked(
  names: readonly string[],
  { title, unit }: { title: string; unit: string },
  rows: readonly RankedRow[],
  format: (value: number) => string,
  { rankBy, baseline, top }: Ranking,
  footer: FooterRow[],
): string {
  const ranked = [...rows].sort((a, b) => b.values[rankBy]! - a.values[rankBy]!);
  const rest = names.map((_, index) =>
    ranked.slice(top).reduce((sum, row) => sum + row.values[index]!, 0),
  );
  const others = names.map((_, index) => index).filter((index) => index !== baseline);
  const header = [
    "#",
    title,
    "source",
    ...names.map((name) => `${name}, ${unit} / request`),
    ...others.map((index) => `${names[index]} − ${names[baseline]}`),
  ];
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  const diff = (values: number[]) =>
    others.map((index) => {
      const delta = values[index]! - values[baseline]!;
      return `${delta >= 0 ? "+" : ""}${format(delta)}`;
    });
  return [
    line(header),
    line(header.map(() => "---")),
    ...ranked
      .slice(0, top)
      .map((row, rank) =>
        line([
          String(rank + 1),
          `\`${row.frame}\``,
          row.source,
          ...row.values.map(format),
          ...diff(row.values),
        ]),
      ),
    line(["", "every other function", "", ...rest.map(format), ...diff(rest)]),
    ...footer.map((row) =>
      line([
        "",
        row.label,
        "",
        ...row.values.map(row.format ?? format),
        ...(row.compare ? diff(row.values) : []),
      ]),
    ),
  ].join("\n");
}

/**
 * The self-time table as Markdown: the `top` functions by self time per
 * request under `rankBy` (a target's index), each target's figure beside it
 * and the difference to `baseline`, then the rest summed and the totals.
 *
 * @example
 * ```ts
 * console.log(renderProfileTable(table, { rankBy: 0, baseline: 1, top: 25 }));
 * ```
 */
export function renderProfileTable(table: ProfileTable, ranking: Ranking): string {
  const { targets } = table;
  return renderRanked(
    targets.map((target) => target.name),
    { title: "function (self time)", unit: "µs" },
    table.rows,
    (value) => value.toFixed(1),
    ranking,
    [
      {
        label: "**workerd CPU per request (/proc, profiler on)**",
        values: targets.map((target) => target.processUsPerRequest),
        compare: true,
        format: (value) => `**${value.toFixed(1)}**`,
      },
      {
        label: "samples per request",
        values: targets.map((target) => target.samplesPerRequest),
        compare: false,
        format: (value) => value.toFixed(2),
      },
      {
        label: "requests profiled",
        values: targets.map((target) => target.requests),
        compare: false,
        format: String,
      },
    ],
  );
}

/**
 * The allocation table as Markdown: the `top` functions by the bytes they
 * allocated themselves per request under `rankBy`, beside every target's
 * figure and the difference to `baseline`, then the rest and the total per
 * request (garbage included: what the collector's share of the CPU follows).
 *
 * @example
 * ```ts
 * console.log(renderAllocationTable(table, { rankBy: 0, baseline: 2, top: 15 }));
 * ```
 */
export function renderAllocationTable(table: ProfileTable, ranking: Ranking): string {
  const { targets } = table;
  const bytes = (value: number) => Math.round(value).toLocaleString("en-US");
  return renderRanked(
    targets.map((target) => target.name),
    { title: "function (allocated itself)", unit: "bytes" },
    table.allocations,
    bytes,
    ranking,
    [
      {
        label: "**bytes allocated per request**",
        values: targets.map((target) => target.bytesPerRequest),
        compare: true,
        format: (value) => `**${bytes(value)}**`,
      },
    ],
  );
}
