import { table, verdict } from "./lib/format.ts";
import { type LoadFigures, medianCpuRatio } from "./lib/load.ts";
import type { Results } from "./results.ts";
import { MANY_CALLERS } from "./scenarios/gates.ts";

/**
 * Issue 50's goals: CPU per request of the worker's workerd, each against
 * its baseline of the same run, as the median of per-round ratios.
 */
export const CPU_GOALS = {
  /** svc's REST read over the hand-written Hono route. */
  restVsHandWritten: 1.05,
  /** The leased REST rate-limit gate: added CPU per request. */
  leasedGate: 0.05,
  /** The exact REST rate-limit gate: added CPU per request. */
  exactGate: 0.25,
  /** Identity from a session cookie (the default), many callers: added CPU per request. */
  identityManyCallers: 0.1,
  /** Identity from a session cookie (the default), one caller: added CPU per request. */
  identityOneCaller: 0.08,
} as const;

const byName = (figures: LoadFigures[] | undefined, name: string) =>
  figures?.find((figure) => figure.name === name);

/** Every round's CPU ratio, `a / b / c`, so a median is never read without its spread. */
function roundsOf(target?: LoadFigures, baseline?: LoadFigures): string {
  if (!target?.cpuRounds || !baseline?.cpuRounds) return "";
  return target.cpuRounds
    .map((value, round) => (value / (baseline.cpuRounds![round] ?? Number.NaN)).toFixed(2))
    .join(" / ");
}

/**
 * The verdict of one goal: `met` only when the ratio is within the limit and
 * neither side had a failed request (a non-2xx answer or a transport error).
 * CPU per request over answers that failed measures the failure, not the
 * work: the exact gate's target answered thousands of 500s once a run
 * lasted past about 70 s of its load (2026-12-05).
 */
function goalVerdict(within: boolean, target: LoadFigures, baseline: LoadFigures): string {
  const failed = target.errors + baseline.errors;
  if (failed > 0) return `**not met** (${failed.toLocaleString("en-US")} failed requests)`;
  return verdict(within);
}

/** A per-1,000-requests counter of a target, or `""` when the run did not count it. */
function per1000(target: LoadFigures | undefined, counter: string): string {
  const value = target?.per1000?.[counter];
  return value === undefined ? "" : value.toFixed(1);
}

/**
 * BENCHMARKS.md's table of issue 50's goals, judged on workerd CPU per
 * request (median of per-round ratios against the baseline measured in the
 * same run, every round listed), with the counters that say what a gate does
 * besides its lookup: rate-limit store calls, session reads and revocation
 * log reads per 1,000 requests. Results from before issue 50 (no CPU per
 * round) show "not measured".
 *
 * @example
 * ```ts
 * cpuGoalsSection(results); // "Issue 50 (CPU per request):\n\n| goal | ..."
 * ```
 */
export function cpuGoalsSection(results: Partial<Results>): string {
  const [rest, , hono] = results.transport?.figures ?? [];
  const figures = results.gates?.figures;
  const none = byName(figures, "no gates");
  const rows: [string, LoadFigures | undefined, LoadFigures | undefined, number, boolean][] = [
    ["svc REST read / hand-written Hono → DO", rest, hono, CPU_GOALS.restVsHandWritten, false],
    [
      "leased rate-limit gate, added CPU",
      byName(figures, "rate-limit gate, leased"),
      none,
      CPU_GOALS.leasedGate,
      true,
    ],
    [
      "exact rate-limit gate, added CPU",
      byName(figures, "rate-limit gate"),
      none,
      CPU_GOALS.exactGate,
      true,
    ],
    [
      `identity from a session cookie (default), ${MANY_CALLERS} callers, added CPU`,
      byName(figures, `identity, ${MANY_CALLERS} callers`),
      none,
      CPU_GOALS.identityManyCallers,
      true,
    ],
    [
      "identity, one caller, added CPU",
      byName(figures, "identity from session cookie"),
      none,
      CPU_GOALS.identityOneCaller,
      true,
    ],
  ];
  return [
    "Issue 50 (CPU per request of the worker's workerd, median of per-round ratios; throughput and latency in the sections):",
    "",
    table(
      [
        "goal",
        "measured",
        "every round",
        "target",
        "verdict",
        "store calls / 1,000 req.",
        "session reads / 1,000 req.",
        "revocation log reads / 1,000 req.",
      ],
      rows.map(([goal, target, baseline, limit, added]) => {
        const ratio = target && baseline ? medianCpuRatio(target, baseline) : null;
        if (ratio === null || !target || !baseline)
          return [goal, "not measured in this run", "", "", "not measured", "", "", ""];
        const measured = added ? ratio - 1 : ratio;
        return [
          goal,
          added
            ? `${measured >= 0 ? "+" : ""}${(measured * 100).toFixed(0)} %`
            : `${ratio.toFixed(2)}×`,
          roundsOf(target, baseline),
          added ? `≤ +${(limit * 100).toFixed(0)} %` : `≤ ${limit.toFixed(2)}×`,
          goalVerdict(measured <= limit, target, baseline),
          per1000(target, "storeCalls"),
          per1000(target, "sessionReads"),
          per1000(target, "revocationReads"),
        ];
      }),
    ),
  ].join("\n");
}
