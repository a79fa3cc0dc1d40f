import type { Results } from "./results.ts";

/**
 * What the profiles of 2026-12-04 (issue 50) said, what changed after them,
 * and what would close each goal not met: a note kept with the code that
 * renders the tables, figures quoted from those profiles and from the merged
 * run of the same evening. Re-profiling rewrites the tables, not this.
 */
const READING = [
  "**Reading of the profiles of 2026-12-04 (issue 50), and what would close each gap.** Taken on a shared " +
    "2-core machine under heavy load (load average 18–26, ~8 engineers running workerd suites), profiler " +
    "on; compare within a table. The glance table's issue-50 rows come from one run of `npm run bench -- " +
    "--merge transport gates` the same evening (5 rounds): under that load the same code's CPU ratio " +
    "moved between rounds by up to 0.7 (REST read 1.02× to 1.73×; leased gate 0.89× to 2.00×), so its " +
    "medians are not yet a verdict on the code; the profiles, which rank functions within one target's " +
    "samples, are steadier.",
  "",
  "- **REST read: 608 µs against the hand-written route's 460 µs per request in the last transport " +
    "profile (1.32×, garbage collection +29 µs of it; recording off 533 µs, 1.16×; taken while other " +
    "benchmarks loaded the machine); in the one before, 617 against 530 µs " +
    "(1.16×; 1.29× before that session's changes; the merged run's median 1.33×, rounds 1.02–1.73×; goal " +
    "≤ 1.05×).** Both do the same Durable Object call (svc's under `invokeProcedure`, 93 µs; the Hono " +
    "handler's `(anonymous)` in src/worker.ts), the same SQL read and as much `(program)` (110 and 112 µs). " +
    "Removed this session, in the profile's order: the procedure timeout race's per-call timer " +
    "(`setTimeout` + `clearTimeout`, 31 µs: the call now carries its `timeoutMs` into the shard, whose " +
    "calls share one timer armed for the earliest deadline, shard/deadlines.ts; neither function is in " +
    "the top 25 any more) and the JSON answer's second `Headers` and JS encoding (`Headers` 10.8 µs and " +
    "`encode` 3.8 µs gone from the table; a short ASCII body goes to workerd as the string). What only " +
    "svc still runs, ranked: the call record's middleware scope (`(anonymous)` in procedures/middleware.ts, " +
    "25 µs, recording on only — recording off is 597 µs), a second `URL` parse (+8.9 µs: the bench " +
    "router's, then svc's; since, the router parses through svc's `requestUrl`, which svc reuses: `URL` " +
    "+0 µs in the next profile), the bench worker's own `fetch` steps before svc (+7.5 µs: the awaited " +
    "`ensureMigrated`, now awaited only until the auth tables exist, and the variant lookup), " +
    "`sizedResponse` (9.7 µs: the ASCII check and the Response), the header-size walk (`forEach` + " +
    "`refuseHugeHeaders`, 12 µs), svc's value encoding (`stringifyJson` + `parseJson`, 12 µs) and " +
    "`shardKeyOf` (5.4 µs). What would close the rest: the call record's scope entered once per call " +
    "instead of around each middleware step; a header-size cap read from the runtime instead of a " +
    "callback per header (Cloudflare caps request headers at 128 KB in total; svc's default cap is 64 KB, " +
    "so the walk is what enforces it).",
  "- **Leased gate: +9 % CPU in the last gates profile (+60 µs; goal ≤ +5 %; the merged run, taken " +
    "before the change below, +32 %, rounds 0.89–2.00×).** Its store calls: 4.4 per 1,000 requests, one " +
    "per lease. The first gates profile ranked `withLimitHeaders` and the `set`s of the `RateLimit-*` " +
    "headers on the finished answer first (9.8 + 8.2 µs); REST and RPC answers now get them in their one " +
    "header record (`takeLimitHeaders`, `jsonResponse`), and neither function is in the top 25 since. Of " +
    "the +60 µs left, +43 µs is garbage collection, which swung by ±80 µs between targets of these " +
    "profiles doing the same work; the rest (+17 µs, ~3 %) is within the goal. What would settle it: a " +
    "run on a quieter machine.",
  "- **Exact gate: +35 % CPU in the last gates profile (+225 µs; +62 % in the first; goal ≤ +25 %; " +
    "merged run +84 %).** The " +
    "difference is round trips: 290 store calls per 1,000 requests in the merged run (coalescing joins " +
    "~3.5 decisions per call at 161 req/s), and with each the store's Durable Object call on both sides " +
    "(`(program)` +50 µs, garbage +55 µs, and +200 µs spread over functions each under the top 25). This " +
    "session made each bounded wait one promise instead of a race of three. Splitting a hot key's " +
    "budget over several store objects (issue 50's Build 3) answers one key's decisions in parallel but " +
    "adds store calls per request (fewer decisions join each), so it raises CPU per request, the measure " +
    "here; it was not built. What would close it on CPU: fewer store calls per request — decisions " +
    "joined over a short window (a latency cost), or exact reservations per isolate that return unspent " +
    "units to the store.",
  "- **Identity, 500 callers (merged run +145 %, rounds 0.90 / 3.30 / 1.01 / 2.45 / 5.03×; gates " +
    "profiles +41 % and +24 %; goal ≤ +10 %).** Not understood yet. In rounds 1 and 3 the target cost nothing " +
    "measurable. The counters (medians over rounds) say 0 session reads per 1,000 requests, so at least " +
    "three rounds had no cache miss at all, and 25 revocation-log reads (time-based, ~4 a second): the " +
    "costly rounds are not all misses (a miss is better-auth's `getSession`, ~3 ms of CPU, the " +
    "`getSession every call` rows). The first profile put the difference in garbage collection (+82 µs) " +
    "and +150 µs spread over functions each below its top 25 (the last: +147 µs there). Next: the counters listed per round beside " +
    "the CPU rounds, and a profile of this target alone, before a design change; if misses do dominate, a " +
    "miss that costs one indexed D1 read of session and user by token instead of `getSession`. One " +
    "caller: +23 % (rounds 1.05–1.72×), 30 revocation-log reads per 1,000 requests.",
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
