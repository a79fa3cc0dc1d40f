import type { CpuRoundPlan } from "./lib/cpu-rounds.ts";
import { count, table, verdict } from "./lib/format.ts";
import { GOALS, percent, SECTION_TITLES } from "./lib/goals.ts";
import { LOAD_HEADER, loadRows } from "./lib/load-table.ts";
import type { ObservabilityResult } from "./scenarios/observability.ts";

const OFF = "recording off";
const STORE_ONLY = "records in the store";
const BOTH = "records on the console and in the store";
const WORKER_CONSOLE = "console lines printed by the worker (no store)";

/** The rounds of runs that did not report theirs. */
const OLD_CPU_PLAN: CpuRoundPlan = { rounds: 600, calls: 100 };

/** How a round's calls batch their records, for the in-worker table's method. */
function batchingNote(plan: CpuRoundPlan): string {
  if (plan.calls === OLD_CPU_PLAN.calls) {
    return (
      "A round writes one batch per 100 calls; under load a batch holds what the isolate served in " +
      "the 100 ms before its write."
    );
  }
  return (
    `A round writes one batch per ${plan.calls} calls, as a busy isolate does: its batches grow ` +
    "with the traffic (the wait before a write doubles after each batch of 50 or more, up to 800 ms) " +
    `and a batch of ${plan.calls} is written at once.`
  );
}

/**
 * What recording costs the REST read for its goal: the worker's calls per
 * CPU-second with the calls made inside the worker, where this run has
 * that figure (its control, recording off against itself, shows the
 * method's spread: under a percent); else, in runs before it, the HTTP
 * throughput comparison, whose per-round spread on this machine is several
 * times the goal.
 *
 * @example
 * ```ts
 * const { cost, measure } = recordingCostOf(results.observability);
 * ```
 */
export function recordingCostOf(observability: ObservabilityResult): {
  cost: number;
  measure: string;
} {
  const inWorker = observability.cpuPerCall?.find((row) => row.name === BOTH);
  if (inWorker === undefined)
    return { cost: observability.recordingCost, measure: "HTTP throughput" };
  return { cost: inWorker.cost, measure: "calls per worker CPU-second" };
}

/** Why recording costs more than its budget, from this run's CPU and store-write figures. */
function recordingNote(observability: ObservabilityResult): string {
  const write = observability.writeMsPerRecord.find((item) => item.batch === 500);
  const inWorker = (name: string) => {
    const row = observability.cpuPerCall?.find((item) => item.name === name);
    return row === undefined ? "not measured" : `${row.usPerCall.toFixed(0)} µs`;
  };
  return (
    `**Why recording costs more than ${percent(GOALS.recordingCost)}, and what would close it.** The worker's ` +
    `CPU a call made inside the worker in this run: ${inWorker(OFF)} with recording off, ` +
    `${inWorker(STORE_ONLY)} with records in the store, ${inWorker(BOTH)} with the store printing the ` +
    `console lines, ${inWorker(WORKER_CONSOLE)} with the worker printing them. What recording leaves in ` +
    "the call: its scope (a property of the request in the worker; in the shard, a named runner the " +
    "handler's console lines are found under through V8's async stack trace, read only when a line is " +
    "printed), the record built at the end, and under load one write to the store per 500 calls (the " +
    "store's insert" +
    (write === undefined
      ? ""
      : `, ${(write.msPerRecord * 1000).toFixed(0)} µs a record in batches of 500,`) +
    " and its console lines run in the store's own workerd, not counted here). Side runs of 2026-11-29 " +
    "(parts switched off by a temporary flag, 400 rounds of 500 calls): recording cost 11 to 13.7 µs a " +
    "call with an AsyncLocalStorage frame a call in the shard, 6.4 µs with the await-chain capture, " +
    "4.0 µs once the worker's wrapper lost its async layer and its read of the answer's body; the record " +
    "built and sent about 1.2 µs of that, partly Miniflare's dev-registry proxy, which a deployed " +
    "worker does not pay (0.5 ms a write whatever its size, against 55 µs to a Durable Object in the " +
    "worker's own workerd). The goal is 5 % of a call that costs the worker about 105 µs here, about " +
    "5 µs for all of recording, near the method's spread. What would close it: judging recording " +
    "without the local proxy, or a cheaper scope than a property of the request and three notes."
  );
}

/** Why a log query missed its goal, naming the queries over it. */
function queryNote(
  observability: ObservabilityResult,
  slow: ObservabilityResult["queries"],
): string {
  const atScale = observability.storedRecords >= GOALS.logRecords;
  const scale = atScale
    ? ""
    : ` This run stored ${count(observability.storedRecords)} records, fewer than the goal's ` +
      `${count(GOALS.logRecords)}, so it cannot meet it whatever the times.`;
  const names = slow.map((query) => `${query.name} (${query.p50Ms.toFixed(1)} ms)`).join(", ");
  return (
    `**Why a log query missed ${GOALS.logQueryMs} ms, and what would close it.**${scale}` +
    (slow.length === 0
      ? ""
      : ` Over the goal: ${names}. Each admin read asks every log store partition at once and merges: ` +
        "filters walk an index of `(column, time)` (`_svc_calls_route`, `_unusual_class`, `_caller`, `_shard`, …), text " +
        "in console lines the FTS5 trigram index, metrics and the Prometheus scrape summed roll-ups, error " +
        "groups their own table. Not profiled in this run; what would close it: the slow query's plan " +
        "(`EXPLAIN QUERY PLAN`) in one partition, and its time in one partition against the merged answer.")
  );
}

/**
 * BENCHMARKS.md's section 12 (issue 29): what recording costs the REST read,
 * a store write per record, and the dashboard's queries over the seeded
 * store, each against its goal, with the measured reason for a miss.
 *
 * @example
 * ```ts
 * observabilitySection(results.observability);
 * ```
 */
export function observabilitySection(observability: ObservabilityResult | undefined): string {
  const title = SECTION_TITLES.observability;
  if (observability === undefined) return [title, "", "Not measured in this run."].join("\n");
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  const slowest = Math.max(...observability.queries.map((query) => query.p50Ms));
  const atScale = observability.storedRecords >= GOALS.logRecords;
  const slow = observability.queries.filter((query) => !(query.p50Ms < GOALS.logQueryMs));
  const notes: string[] = [];
  const goal = recordingCostOf(observability);
  if (!(goal.cost <= GOALS.recordingCost)) notes.push(recordingNote(observability));
  const cpuPerCall = observability.cpuPerCall;
  const plan = observability.cpuPlan ?? OLD_CPU_PLAN;
  if (!atScale || slow.length > 0) notes.push(queryNote(observability, slow));
  return [
    title,
    "",
    "The REST read of section 1 with recording off, with records in the log store only, with console " +
      "lines printed by the worker itself (no store), and with the default (records in the store, which " +
      "prints each one's JSON line on the console), interleaved in one run: 41 rounds of 1 s per target, " +
      "each round starting one target later; a cost is the median over rounds of a round's ratio. As deployed, the " +
      "store runs apart from the worker (its own workerd here) and the worker's workerd has a core to " +
      "itself; CPU is the worker's workerd's per request.",
    "",
    table(LOAD_HEADER, loadRows(observability.figures)),
    "",
    table(
      ["throughput cost against recording off", "measured", "goal", ""],
      [
        ["records in the store (no console line)", percent(observability.storeOnlyCost), "—", ""],
        [
          "records on the console and in the store (default)",
          percent(observability.recordingCost) +
            (observability.recordingCostQuartiles === undefined
              ? ""
              : ` (middle half of rounds ${observability.recordingCostQuartiles.map(percent).join(" to ")})`),
          cpuPerCall === undefined ? `≤ ${percent(GOALS.recordingCost)}` : "—",
          cpuPerCall === undefined ? verdict(goal.cost <= GOALS.recordingCost) : "",
        ],
        ...(observability.workerConsoleCost === undefined
          ? []
          : [
              [
                "console lines printed by the worker (no store bound)",
                percent(observability.workerConsoleCost),
                "—",
                "",
              ],
            ]),
      ],
    ),
    ...(cpuPerCall === undefined
      ? []
      : [
          "",
          `The same read made inside the worker (\`GET /bench/loop\`: ${plan.calls} calls one after another through ` +
            `the variant's \`fetch\`, no HTTP server or load generator per call), the variants in ${plan.rounds} ` +
            "rounds in an order shuffled each round; each loop answers once what its calls left running " +
            "(the store's batched write) has finished, so that work counts in its own round; the worker's " +
            "workerd CPU read around each loop in nanoseconds (scheduler statistics of its threads). " +
            batchingNote(plan) +
            " A cost is the median over rounds " +
            "of 1 − off's CPU per call / the variant's: the calls a CPU-second serves fewer. The second " +
            "row is recording off measured against itself: the method's own spread. Over HTTP (above) " +
            "the same pair's rounds stray by more than the goal on this shared machine; here the worker " +
            "is the only thing measured, so the goal is judged on this table.",
          "",
          table(
            ["target", "CPU a call", "cost against off", "middle half of rounds", "goal", ""],
            cpuPerCall.map((row) => [
              row.name,
              `${row.usPerCall.toFixed(0)} µs`,
              percent(row.cost),
              row.costQuartiles.map(percent).join(" to "),
              row.name === BOTH ? `≤ ${percent(GOALS.recordingCost)}` : "—",
              row.name === BOTH ? verdict(row.cost <= GOALS.recordingCost) : "",
            ]),
          ),
        ]),
    "",
    "One call at a time (the same read, " +
      "alternating blocks of 50 calls per variant, 30 rounds; a ratio is the median over rounds of a block's " +
      "median against recording off's block of the same round, so a drift in the machine's load cancels):",
    "",
    table(
      ["target", "p50", "ratio to off"],
      (observability.sequential ?? []).map((row) => [
        row.name,
        `${row.p50Ms.toFixed(2)} ms`,
        `${row.ratioToOff.toFixed(3)}×`,
      ]),
    ),
    "",
    "Log store write cost (one batch write into one partition, timed in the worker, medians of 15): " +
      observability.writeMsPerRecord
        .map(
          (write) =>
            `${(write.msPerRecord * 1000).toFixed(0)} µs a record in batches of ${write.batch}`,
        )
        .join("; ") +
      ".",
    "",
    `Admin API reads over ${count(observability.storedRecords)} stored records (4 partitions; seeded in ` +
      `${observability.seedSeconds} s), 25 each, wall time from the load generator ` +
      `(goal: every p50 < ${GOALS.logQueryMs} ms over ${count(GOALS.logRecords)} records, ` +
      `${verdict(atScale && slowest < GOALS.logQueryMs)}):`,
    "",
    table(
      ["query", "p50", "p95"],
      observability.queries.map((query) => [query.name, ms(query.p50Ms), ms(query.p95Ms)]),
    ),
    ...notes.flatMap((note) => ["", note]),
  ].join("\n");
}
