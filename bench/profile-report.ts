import type { Results } from "./results.ts";

/**
 * What the profiles said (issue 50), what changed before them, and what
 * would close each goal not met: a note kept with the code that renders the
 * tables, figures quoted from the transport profile and the judging run of
 * 2026-12-05 (afternoon run, the second of that day). Re-profiling rewrites
 * the tables, not this.
 */
const READING = [
  "**Reading of the profiles (issue 50), and what would close each gap.** The glance table and the " +
    "transport profile are from 2026-12-05, after shard stubs began to reuse their ids: " +
    "`BENCH_ROUNDS=9 npm run bench -- --merge transport gates`, then `npm run bench -- --profile " +
    "transport`; the gates profile is from an earlier run. Profiler on, each target's window from a " +
    "collected heap and ending with the collection of its own garbage; the warm-up runs under the " +
    "profiler, since code V8 optimized with no profiler running charged native calls (SQL `exec`, " +
    "`Response`) to its JS caller. Compare within a table: the profiler's own cost is not spread " +
    "evenly, and the machine's load moves every target between runs.",
  "",
  "- **REST read: 1.05× the hand-written route's CPU per request in the judging run (rounds " +
    "1.03–1.13; goal ≤ 1.05×), but 1.13× in a run of the same code minutes before (rounds 1.07–1.29, " +
    "every target 8–16 % slower), so one 9-round run does not settle it.** Pooled per-round ratios of " +
    "six alternating 9-round `transport` runs each put the code at 1.087 (54 rounds) against 1.101 for " +
    "the code before (54): about 1.5 points gained, 3.5 short of the goal. The gain: `getByName` " +
    "derived the shard key's id (a keyed hash) on every call; a kept id and `get` cost 7.1 µs here " +
    "against the hand-written route's 10.8 µs of `getByName` (1.7 against 0.7 µs in a tight workerd " +
    "loop). Transport profile: 496 against 462 µs (+33; recording off +17); 9,203 against 8,948 bytes " +
    "allocated per request (+255; recording off 8,335). What svc alone still spends is spread thin: " +
    "the header cap's walk (`forEach` 9.7 + `refuseHugeHeaders` 2.3; about 2 points in an earlier " +
    "throwaway build without it; no runtime API gives a request's header size, and the cap is a tested " +
    "contract), the stored document's `JSON.parse` (9.0; documents are stored as JSON), the answer's " +
    "`sizedResponse` (9.4; its declared `content-length` is a tested contract), the call record " +
    "(~8 with `#finish`, the shipper and the scope), and some 60 small functions below 2 µs each. The " +
    "profile's function figures are several times what the same operations cost in a tight loop in " +
    "workerd, because a request runs each function once, cold. What would close the last points is a " +
    "design change: a shard call that can answer a value (a Durable Object method answering a promise " +
    "costs 2.4–3.4 µs more per call; svc's handlers are `async` by contract), a header cap the runtime " +
    "checks, or a query run from the shard's RPC entry to its SQL without the dispatcher's `ctx` " +
    "(1.06× in an earlier throwaway build).",
  "- **Leased gate: +5.3 % in the judging run (rounds 0.94–1.15; goal ≤ +5 %: not met), +1.6 % in the " +
    "run before with the same code (rounds 0.98–1.14).** Its store calls: 1.0 per 1,000 requests, one " +
    "per lease. Per request it adds its three `RateLimit-*` headers to the answer's record: a " +
    "`Response` made with five headers instead of two (0.3–0.5 µs a header in a tight loop) and three " +
    "more header lines on the wire. Its true cost sits at the goal; which side one run lands on is " +
    "noise.",
  "- **Exact gate (+20 %, goal ≤ +25 %), identity with 500 callers (+9.5 %, goal ≤ +10 %) and with one " +
    "(+5 %, goal ≤ +8 %): met.** The exact gate's cost is its store round trips (118.9 per 1,000 " +
    "requests); the 500 callers' is their cached identities (+0.1 % in the run before).",
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
