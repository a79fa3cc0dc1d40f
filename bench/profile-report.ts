import type { Results } from "./results.ts";

/**
 * What the profiles said (issue 50), what changed before them, and what
 * would close each goal not met: a note kept with the code that renders the
 * tables, figures quoted from the transport profile and the judging run of
 * 2026-12-05 (afternoon run, the second of that day). Re-profiling rewrites
 * the tables, not this.
 */
const READING = [
  "**Reading of the profiles (issue 50), and what would close each gap.** The transport profile and the " +
    "glance table are from 2026-12-05, one run each: `BENCH_ROUNDS=9 npm run bench -- --merge transport " +
    "gates`, then `npm run bench -- --profile transport`; the gates profile is from the run before. " +
    "Profiler on, each target's window from a collected heap and ending with the collection of its own " +
    "garbage; the warm-up runs under the profiler, since code V8 optimized with no profiler running " +
    "charged native calls (SQL `exec`, `Response`) to its JS caller. Compare within a table: the " +
    "profiler's own cost is not spread evenly, and this machine's load moved every target of the " +
    "transport profile by 15 % against the one before (the hand-written route: 510 µs, it was 434).",
  "",
  "- **REST read: 1.08× the hand-written route's CPU per request in the judging run (rounds 1.05–1.17; " +
    "goal ≤ 1.05×; 1.08× in the judging run before); 526 against 510 µs in the transport profile " +
    "(+16 µs; recording off +7); 9,312 against 9,017 bytes allocated per request (+296, it was +541; " +
    "recording off 8,171).** What changed since the run before: a shard call's deadline race, record " +
    "and answer are one `then`, the worker settles and records a request's answer in one `then`, a query " +
    "runs with no `async` frame of its own, the record takes the method its route read, and a REST " +
    "answer with no gate headers makes no options object. Their effect is inside the noise: pooled " +
    "per-round ratios of alternating 9-round `transport` runs gave 1.086 before them (54 rounds), 1.081 " +
    "with the first two (36) and 1.091 with all (36). The profile's function figures are several times " +
    "what the same operations cost in a tight loop in workerd (20,000 iterations under Miniflare): " +
    "`parseJson` 8.9 µs here against ~0.2, the header walk's `forEach` 9.4 against 2.2 for 8 headers; " +
    "there a `new Response` with three headers costs 3.7–4.1 µs (two 3.0–3.2, a shared `Headers` " +
    "2.6–3.0) and `Date.now`, `crypto.randomUUID` and `request.method` 0.05–0.14 µs. A request " +
    "runs through some 60 svc functions once each, cold: its cost follows the code it touches, not its " +
    "operations, which is why removing single operations moves nothing measurable. What would close " +
    "the last points is a design change: a Durable Object method that answers a promise costs 2.4–3.4 µs " +
    "more per call than one that answers a value (the Hono route's `getRow` is synchronous; svc's " +
    "handlers are `async` by contract, so its `call` always answers a promise, behind the await-scope " +
    "runner of a recorded call and the deadline race); the header cap walks every header (about 2 points " +
    "in an earlier throwaway build without it; no runtime API gives a request's header size, and the cap " +
    "is a tested contract); a query run from the shard's RPC entry to its SQL without the dispatcher's " +
    "`ctx` (1.06× in an earlier throwaway build). The bench's collection before each window makes V8 " +
    "deoptimize about 56 functions, svc's and Hono's (`--log-deopt`: embedded weak objects cleared); an " +
    "unmeasured second of load and a young collection before each window gave 1.083 and 1.063 but raised " +
    "every target's CPU by ~5 %, so it was not adopted.",
  "- **Leased gate: +7 % in the judging run (rounds 1.00–1.12; goal ≤ +5 %: not met; +2 % with rounds " +
    "1.00–1.14 in the run before, with the same gate code).** Its store calls: 1.1 per 1,000 requests, " +
    "one per lease. Per request it adds its three `RateLimit-*` headers to the answer's record: a " +
    "`Response` made with five headers instead of two (0.3–0.5 µs a header in a tight loop) and three " +
    "more header lines on the wire. The two runs' rounds overlap from 1.00 to 1.12: the gate's true " +
    "cost sits near the goal and one 9-round run does not tell which side.",
  "- **Exact gate (+17 %, goal ≤ +25 %), identity with 500 callers (+6 %, goal ≤ +10 %) and with one " +
    "(+4 %, goal ≤ +8 %): met.** The exact gate's cost is its store round trips (118.7 per 1,000 " +
    "requests); the 500 callers' is their cached identities.",
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
