import { cpuGoalsSection } from "./cpu-goals-report.ts";
import { count, ratio, table, verdict } from "./lib/format.ts";
import { anchor, GOALS, percent, SECTION_TITLES, worstRoundRatio } from "./lib/goals.ts";
import { recordingCostOf } from "./observability-report.ts";
import type { Results } from "./results.ts";

/** One goal's row: what was measured, the goal, whether it holds, and where the reason is. */
interface GoalRow {
  goal: string;
  measured: string;
  target: string;
  /** `null` when this run did not measure it. */
  met: boolean | null;
  /** The section whose note explains a missed goal. */
  section: keyof typeof SECTION_TITLES | null;
}

const NOT_MEASURED = "not measured in this run";

function row(
  goal: string,
  target: string,
  section: GoalRow["section"],
  figure: { measured: string; met: boolean } | null | undefined,
): GoalRow {
  if (figure == null) return { goal, measured: NOT_MEASURED, target, met: null, section };
  return { goal, target, section, ...figure };
}

function issue32Rows(results: Partial<Results>, npmTestSeconds: number | null): GoalRow[] {
  const { gates, transport, admin, auth } = results;
  const noGates = gates?.figures.find((figure) => figure.name === "no gates");
  const leased = gates?.figures.find((figure) => figure.name === "rate-limit gate, leased");
  const leasedWorst = 1 - worstRoundRatio(leased, noGates);
  const [rest, , hono] = transport?.figures ?? [];
  const restWorst = worstRoundRatio(rest, hono);
  const cases = admin?.results.filter((item) => !item.path.startsWith("overview")) ?? [];
  const slowest = cases.reduce<(typeof cases)[number] | undefined>(
    (worst, item) => (worst === undefined || item.svcMs > worst.svcMs ? item : worst),
    undefined,
  );
  const overview = admin?.results.find((item) => item.path.startsWith("overview"));
  const atScale = admin !== undefined && admin.users >= GOALS.adminUsers;
  const scale = admin === undefined ? "" : ` (${count(admin.users)} users)`;
  return [
    row(
      "identity from a session cookie (the default), throughput cost",
      `≤ ${percent(GOALS.identityCost)}; revocation everywhere within 1 s is tested, not benched ` +
        "(examples/app/test/node/revocation.test.ts)",
      "gates",
      gates && {
        measured: percent(gates.identityCost),
        met: gates.identityCost <= GOALS.identityCost,
      },
    ),
    row(
      "exact REST rate-limit gate, throughput cost",
      `≤ ${percent(GOALS.exactLimitCost)}`,
      "gates",
      gates && {
        measured: percent(gates.rateLimitCost),
        met: gates.rateLimitCost <= GOALS.exactLimitCost,
      },
    ),
    row(
      "leased rate-limit gate, throughput cost in every round",
      `≤ ${percent(GOALS.leasedLimitCost)} in every round`,
      "gates",
      gates && {
        measured: `worst round ${percent(leasedWorst)} (median ${percent(gates.rateLimitLeasedCost)})`,
        met: leasedWorst <= GOALS.leasedLimitCost,
      },
    ),
    row(
      "REST / hand-written Hono → DO, every round",
      `≥ ${ratio(GOALS.restVsHandWritten)} in every round`,
      "transport",
      transport && {
        measured: `worst round ${ratio(restWorst)} (median ${ratio(transport.restVsHandWritten)})`,
        met: restWorst >= GOALS.restVsHandWritten,
      },
    ),
    row(
      "admin at 1,000,000 users: every list case (broad searches, `role=user`, search + role + banned, …)",
      `p50 < ${GOALS.adminCaseMs} ms in every case, at ${count(GOALS.adminUsers)} users; ` +
        "capped totals documented (docs/admin-api.md)",
      "admin",
      slowest === undefined || admin === undefined
        ? null
        : {
            measured: `slowest: ${slowest.name} ${slowest.svcMs.toFixed(0)} ms${scale}`,
            met: atScale && slowest.svcMs < GOALS.adminCaseMs,
          },
    ),
    row(
      "admin overview at 1,000,000 users",
      `< ${GOALS.adminOverviewMs} ms`,
      "admin",
      overview === undefined
        ? null
        : {
            measured: `${overview.svcMs.toFixed(0)} ms${scale}`,
            met: atScale && overview.svcMs < GOALS.adminOverviewMs,
          },
    ),
    row(
      "sign-up, svc / plain better-auth",
      `≥ ${ratio(GOALS.signUpRatio)}`,
      "auth",
      auth && { measured: ratio(auth.signUpRatio), met: auth.signUpRatio >= GOALS.signUpRatio },
    ),
    npmTestSeconds === null
      ? {
          goal: "`npm test` in CI",
          measured:
            "not measured by the bench: timed on a clean clone (CONTRIBUTING.md's Tests table, " +
            "issue 32's closing note); `BENCH_NPM_TEST_SECONDS` puts it here",
          target: `≤ ${GOALS.npmTestSeconds} s`,
          met: null,
          section: null,
        }
      : {
          goal: "`npm test` in CI",
          measured: `${count(npmTestSeconds)} s (given in \`BENCH_NPM_TEST_SECONDS\`)`,
          target: `≤ ${GOALS.npmTestSeconds} s`,
          met: npmTestSeconds <= GOALS.npmTestSeconds,
          section: null,
        },
  ];
}

function issue29Rows({ observability }: Partial<Results>): GoalRow[] {
  const slowest = observability?.queries.reduce<{ name: string; p50Ms: number } | undefined>(
    (worst, query) => (worst === undefined || query.p50Ms > worst.p50Ms ? query : worst),
    undefined,
  );
  const atScale = observability !== undefined && observability.storedRecords >= GOALS.logRecords;
  const recording = observability && recordingCostOf(observability);
  return [
    row(
      "REST read, recording on (store + console line, the default) against off, throughput cost",
      `≤ ${percent(GOALS.recordingCost)}`,
      "observability",
      recording && {
        measured: `${percent(recording.cost)} (${recording.measure})`,
        met: recording.cost <= GOALS.recordingCost,
      },
    ),
    // Not a goal of its own (the issue's is the default's): shown so the split is at hand.
    row(
      "REST read, records in the store only (no console line) against off, throughput cost",
      "reported",
      "observability",
      observability && {
        measured: percent(observability.storeOnlyCost),
        met: true,
      },
    ),
    row(
      "log store write cost per call",
      "reported",
      "observability",
      observability && {
        measured: observability.writeMsPerRecord
          .map((write) => `${(write.msPerRecord * 1000).toFixed(0)} µs (batches of ${write.batch})`)
          .join(", "),
        met: observability.writeMsPerRecord.length > 0,
      },
    ),
    row(
      "dashboard log query p50 over 1,000,000 stored records",
      `< ${GOALS.logQueryMs} ms for every query, at ${count(GOALS.logRecords)} records`,
      "observability",
      slowest === undefined || observability === undefined
        ? null
        : {
            measured:
              `slowest: ${slowest.name} ${slowest.p50Ms.toFixed(1)} ms ` +
              `(${count(observability.storedRecords)} records)`,
            met: atScale && slowest.p50Ms < GOALS.logQueryMs,
          },
    ),
  ];
}

/** `[section 2](#2-gate-costs)` for `## 2. Gate costs`. */
function link(heading: string): string {
  const number = /^## (\d+)\./.exec(heading)?.[1] ?? "";
  return `[section ${number}](${anchor(heading)})`;
}

function render(rows: GoalRow[]): string {
  return table(
    ["goal", "measured", "target", "verdict", "why not, and what would close it"],
    rows.map((item) => [
      item.goal,
      item.measured,
      item.target,
      item.met === null ? "not measured" : verdict(item.met),
      item.met === false && item.section !== null ? link(SECTION_TITLES[item.section]) : "",
    ]),
  );
}

/**
 * BENCHMARKS.md's summary of issues 32 and 29: one row per goal of their
 * tables, measured in this run, with its verdict computed from the figures
 * and, for a goal not met, a link to the section whose note gives the
 * measured reason and what would close it. `npmTestSeconds` is CI's
 * `npm test` time when the caller knows it (the bench does not run tests).
 *
 * @example
 * ```ts
 * goalsSection(results, Number(process.env.BENCH_NPM_TEST_SECONDS) || null);
 * ```
 */
export function goalsSection(results: Partial<Results>, npmTestSeconds: number | null): string {
  return [
    "## Goals of issues 50, 32 and 29 at a glance",
    "",
    "Every verdict below is computed from this run's figures; a goal not met links to the section " +
      "whose note gives the measured reason and what would close it.",
    "",
    cpuGoalsSection(results),
    "",
    "Issue 32 (performance and scale):",
    "",
    render(issue32Rows(results, npmTestSeconds)),
    "",
    "Issue 29 (call records):",
    "",
    render(issue29Rows(results)),
  ].join("\n");
}
