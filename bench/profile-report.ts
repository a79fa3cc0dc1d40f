import type { Results } from "./results.ts";

/**
 * What the profiles of 2026-12-05 (issue 50) said, what changed before them,
 * and what would close each goal not met: a note kept with the code that
 * renders the tables, figures quoted from those profiles and from the
 * judging run of the same night. Re-profiling rewrites the tables, not this.
 */
const READING = [
  "**Reading of the profiles of 2026-12-05 (issue 50), and what would close each gap.** Taken on a quiet " +
    "machine (load 1–2), profiler on, each target's window from a collected heap and ending with the " +
    "collection of its own garbage; the warm-up runs under the profiler, since code V8 optimized with no " +
    "profiler running charged native calls (SQL `exec`, `Response`) to its JS caller (the hand-written " +
    "DO's `getRow` showed 34 µs of self time and its `exec` a third of svc's for the same statement). " +
    "Compare within a table. The glance table comes from one run of `BENCH_ROUNDS=9 npm run bench -- " +
    "--merge transport gates storage` the same night: with the collections settled, one code's rounds " +
    "now spread by under 0.1 (they spread by up to 0.7 before).",
  "",
  "- **REST read: 1.10× the hand-written route's CPU per request in the judging run (rounds 1.05–1.13; " +
    "1.29× in the last judging run; goal ≤ 1.05×); 541 against 475 µs in the transport profile " +
    "(+66 µs).** Removed since the last profiles: esbuild's `__name` calls (wrangler bundles with " +
    "`keepNames`: every named arrow made per request ran a `defineProperty`, 13–20 µs per read — `ctx.db` " +
    "is now methods of one object, dispatch builds no per-call closures, a procedure without middleware " +
    "calls its handler directly, a query runs in one async function), the shard's per-call `ctx` building " +
    "(`#context` 12.9 → 1.6 µs), the admission chain's awaits, spreads and span facts when no SDK is " +
    "registered, the query string's `URLSearchParams` (split in JS when it needs no decoding: `shardKeyOf` " +
    "and the GET arguments 13 → 5 µs), the call record's 15-field object (the store builds the record " +
    "from an array of facts; recording now costs ~3 µs per call), and the recording plan cloned into " +
    "every query's shard call. Allocation per read fell from 18.6 KB to ~14 KB (the hand-written route: " +
    "9 KB). What only svc still runs, ranked by this profile: `invokeProcedure`'s call (the same native " +
    "RPC as the Hono handler's), the shard's wrapper around the handler (~20 µs: deadlines, the call's " +
    "await scope, argument validation), the stored document's `parseJson` (~8 µs: svc keeps a document " +
    "as JSON, the hand-written table as columns), the header-size walk (`forEach` + `refuseHugeHeaders`, " +
    "~11 µs profiled, ~2.4 µs without the profiler), `sizedResponse` and `toShardCall` (~8 µs each " +
    "profiled), the call record (~9 µs profiled) and garbage collection (+8 µs). What would close the rest: " +
    "fewer bytes allocated per read (GC follows them), a document read answered as the stored JSON when " +
    "no RLS rule or output check needs the object, and one call scope lookup per request instead of one " +
    "per note.",
  "- **Leased gate: +5.2 % in the judging run (rounds 1.01–1.09; goal ≤ +5 %: not " +
    "met; +10 % in the last judging run); +22 µs (+4.2 %) in the gates profile.** Its store calls: 1.0 per " +
    "1,000 requests, one per lease. A call spent from a lease now builds no key and awaits nothing " +
    "(`spendLease`, answered synchronously: 0.84 → 0.55 µs per call without the profiler). What is left in " +
    "the profile is the answer's three `RateLimit-*` headers (`Response` +5.2 µs) and their record (garbage " +
    "+7.7 µs). What would close it: the headers' record reused while the lease's remaining count and reset " +
    "do not change (one per second at most), or the draft's single `RateLimit` field instead of three.",
  "- **Exact gate (+17 %, goal ≤ +25 %: met), identity with 500 callers (+5 %) and with one (+4 %): met.** " +
    "The exact gate's cost is its store round trips (118 per 1,000 requests; decisions of one key in " +
    "flight are joined into one call).",
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
      "`BENCH_PROFILE_DIR=<dir>` keeps the raw `.cpuprofile` files (DevTools → Performance → Load profile).",
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
