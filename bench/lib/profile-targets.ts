import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { BenchApp } from "./bench-app.ts";
import { bundleSources } from "./bundle-sources.ts";
import { type CpuProfile, selfSamples } from "./cpu-profile.ts";
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
  }[];
  /**
   * Every function seen, with its self time per request (µs) under each
   * target, in target order: its share of the target's samples times the
   * workerd CPU per request measured over the same windows.
   */
  rows: { frame: string; source: string; usPerRequest: number[] }[];
}

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
 * The app must have been started with `{ inspect: true }`.
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
  const frameKey = (frame: { functionName: string; lineNumber: number; url?: string }) => {
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
  } finally {
    profiler.close();
  }
  const keys = new Set(selfCount.flatMap((map) => [...map.keys()]));
  const totals = selfCount.map((map) => [...map.values()].reduce((sum, n) => sum + n, 0));
  const processUs = processMs.map((ms, index) => (ms * 1000) / Math.max(1, requests[index]!));
  return {
    targets: targets.map((target, index) => ({
      name: target.name,
      requests: requests[index]!,
      samplesPerRequest: totals[index]! / Math.max(1, requests[index]!),
      processUsPerRequest: processUs[index]!,
    })),
    rows: [...keys].map((key) => ({
      frame: key.replace(/@\d+$/, ""),
      source: sources.get(key) ?? "",
      usPerRequest: selfCount.map(
        (map, index) => ((map.get(key) ?? 0) / Math.max(1, totals[index]!)) * processUs[index]!,
      ),
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
    const result = await drive(target, DEFAULT_PLAN, seconds);
    const failed = result.non2xx + result.errors;
    if (failed > 0) throw new Error(`${target.name}: ${failed} failed requests`);
    served = result.requests.total;
    await app.settle();
  });
  return { profile, served, cpuMs: (await app.workerCpuMs()) - before };
}

/** With `BENCH_PROFILE_DIR` set, keeps a raw profile there, for DevTools (Performance → Load profile). */
async function keepRaw(profile: CpuProfile, name: string): Promise<void> {
  const dir = process.env.BENCH_PROFILE_DIR;
  if (!dir) return;
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
}

/**
 * The table as Markdown: the `top` functions by self time per request under
 * `rankBy` (a target's index), each target's figure beside it and the
 * difference to `baseline`, then the rest summed and the totals.
 *
 * @example
 * ```ts
 * console.log(renderProfileTable(table, { rankBy: 0, baseline: 1, top: 25 }));
 * ```
 */
export function renderProfileTable(
  table: ProfileTable,
  { rankBy, baseline, top }: { rankBy: number; baseline: number; top: number },
): string {
  const us = (value: number) => value.toFixed(1);
  const ranked = [...table.rows].sort((a, b) => b.usPerRequest[rankBy]! - a.usPerRequest[rankBy]!);
  const shown = ranked.slice(0, top);
  const rest = table.targets.map((_, index) =>
    ranked.slice(top).reduce((sum, row) => sum + row.usPerRequest[index]!, 0),
  );
  const others = table.targets.map((_, index) => index).filter((index) => index !== baseline);
  const header = [
    "#",
    "function (self time)",
    "source",
    ...table.targets.map((target) => `${target.name}, µs / request`),
    ...others.map((index) => `${table.targets[index]!.name} − ${table.targets[baseline]!.name}`),
  ];
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  const diff = (values: number[]) =>
    others.map((index) => {
      const delta = values[index]! - values[baseline]!;
      return `${delta >= 0 ? "+" : ""}${us(delta)}`;
    });
  return [
    line(header),
    line(header.map(() => "---")),
    ...shown.map((row, rank) =>
      line([
        String(rank + 1),
        `\`${row.frame}\``,
        row.source,
        ...row.usPerRequest.map(us),
        ...diff(row.usPerRequest),
      ]),
    ),
    line(["", "every other function", "", ...rest.map(us), ...diff(rest)]),
    line([
      "",
      "**workerd CPU per request (/proc, profiler on)**",
      "",
      ...table.targets.map((target) => `**${us(target.processUsPerRequest)}**`),
      ...diff(table.targets.map((target) => target.processUsPerRequest)),
    ]),
    line([
      "",
      "samples per request",
      "",
      ...table.targets.map((target) => target.samplesPerRequest.toFixed(2)),
    ]),
    line(["", "requests profiled", "", ...table.targets.map((target) => String(target.requests))]),
  ].join("\n");
}
