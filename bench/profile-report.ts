import type { Results } from "./results.ts";

/**
 * What the profiles said (issue 50), what changed before them, and what
 * would close each goal not met: a note kept with the code that renders the
 * tables, figures quoted from the transport profile and the judging run of
 * 2026-12-05 (afternoon run, the second of that day). Re-profiling rewrites
 * the tables, not this.
 */
const READING = [
  "**Reading of the profiles (issue 50), and what would close each gap.** The glance table is from one " +
    "`npm run bench -- --merge transport gates` of 2026-12-05 with 27 rounds (the judging plan since that " +
    "run; 9 before), the transport profile from `npm run bench -- --profile transport` right after it; the " +
    "gates profile is from an earlier run. Profiler on, each target's window from a collected heap and " +
    "ending with the collection of its own garbage; the warm-up runs under the profiler, since code V8 " +
    "optimized with no profiler running charged native calls (SQL `exec`, `Response`) to its JS caller. " +
    "Compare within a table: the profiler's own cost is not spread evenly, and the machine's load moves " +
    "every target between runs. A JS function right next to a native call carries part of that call's " +
    "cost: `toShardCall` (17.3 µs) is the shard call's serialization, whose sum with `invokeThen` is the " +
    "same with recording on and off.",
  "",
  "- **REST read: 1.10× the hand-written route's CPU per request (27 rounds, middle half 1.06–1.12; goal " +
    "≤ 1.05×: not met); with recording off 1.08× (middle half 1.07–1.09), so recording is 1.02× of it.** " +
    "The 1.05× of the run before was one 9-round run; six 9-round runs of that code pooled (54 rounds) " +
    "gave 1.087. Where the gap sits, by inclusive time per request from the profiles' call stacks (this " +
    "profile, and one of the same code taken an hour before): the shard's side of the call (svc's `call` " +
    "against the hand-written object's `getRow`) +20 and +31 µs; the worker's side up to the shard call " +
    "(svc's `fetch` against Hono's route) −9 and −24 µs, so svc's routing and admission already cost less " +
    "than Hono's router; the answer, the call record and the runtime's own work +35 and +26 µs, of which " +
    "`(program)` and the collector move by ±10 µs from one profile to the next. On the shard's side svc " +
    "runs what the hand-written object does (`exec`, `toArray`) plus its dispatch (some 12 µs of small " +
    "functions: the deadline race, the await-scope runner, argument validation, `ctx`) and the stored " +
    "document's `JSON.parse` (7.2; documents are stored as JSON). What would close the last 5 points is " +
    "not a local change but three design changes together: a query run from the shard's RPC entry " +
    "straight to its SQL (1.06× in an earlier throwaway build, 3–4 points), the header cap's walk " +
    "(`forEach` 8.4 + `refuseHugeHeaders` 2.0 µs, about 2 points; no runtime API gives a request's header " +
    "size, and the cap's exact total is a tested contract) and the call record (about 2 points; on by " +
    "default, DESIGN.md).",
  "- **Leased gate: +3.2 % (27 rounds, middle half +0.9 to +5.0 %; goal ≤ +5 %): met.** Its store calls: " +
    "1.05 per 1,000 requests, one per lease. Per request it adds its three `RateLimit-*` headers to the " +
    "answer's record: a `Response` made with five headers instead of two (0.3–0.5 µs a header in a tight " +
    "loop) and three more header lines on the wire. The 9-round runs before put it at +1.6 % and +5.3 %.",
  "- **Exact gate (+19 %, goal ≤ +25 %), identity with 500 callers (+8 %, goal ≤ +10 %) and with one " +
    "(+6 %, goal ≤ +8 %): met.** The exact gate's cost is its store round trips (118.6 per 1,000 " +
    "requests); the 500 callers' is their cached identities (3.0 revocation log reads per 1,000 requests).",
].join("\n");

const TITLES = {
  transport: "the REST read against the hand-written route",
  gates: "the gates against the same read with none",
} as const;

/**
 * BENCHMARKS.md's section of CPU profiles: for each profiled scenario, the
 * command that took it and its ranked tables of self time per request by
 * function (bench/lib/profile-targets.ts), so a gap in section 1 or 2 is
 * read as the functions it is made of.
 *
 * @example
 * ```ts
 * profileSection(results); // "## 1a. Where the CPU goes: profiles\n..."
 * ```
 */
export function profileSection({ profiles }: Partial<Results>): string {
  const taken = Object.entries(profiles ?? {});
  return [
    "## 1a. Where the CPU goes: profiles",
    "",
    "V8's sampling profiler in the worker's workerd (through its inspector) while autocannon drives each " +
      "target in turn, rounds interleaved, after a warm-up. A function's figure is its **self time** per " +
      "request: its share of the target's samples times the workerd CPU per request measured (/proc) over " +
      "the same windows. Shares of samples, not the samples' time deltas: V8 samples on a wall-clock " +
      "timer, so on a loaded machine a delta also holds the time the thread waited for a core. Native " +
      "work runs under the JS function that called it (`invokeProcedure` holds the Durable Object call's " +
      "serialization, as the Hono handler does); `(program)` is workerd's own work outside JS. The profiler " +
      "costs CPU itself, so compare targets within a table, not with sections 1 and 2. " +
      "`BENCH_PROFILE_DIR=<dir>` keeps the raw `.cpuprofile` files (DevTools → Performance → Load profile). " +
      "Each profile ends with a table of the bytes each function allocates itself per request (V8's " +
      "sampling heap profiler, one window per target, objects already collected counted): the garbage a " +
      "request leaves for the collector, a figure that barely moves with the machine's load.",
    "",
    ...(taken.length === 0
      ? ["No profile taken yet: `npm run bench -- --profile transport`."]
      : taken.flatMap(([name, report]) => [
          `### ${TITLES[name as keyof typeof TITLES] ?? name}`,
          "",
          `\`${report.command}\` (${report.date}; ${report.rounds} rounds of ${report.seconds} s per target).`,
          "",
          report.tables,
          "",
        ])),
    ...(taken.length === 0 ? [] : ["", READING]),
  ]
    .join("\n")
    .trimEnd();
}
