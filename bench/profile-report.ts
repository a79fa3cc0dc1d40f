import type { Results } from "./results.ts";

/**
 * What the profiles of 2026-12-04 (issue 50) said, and what would close each
 * goal not met: a note kept with the code that renders the tables, figures
 * quoted from those profiles. Re-profiling rewrites the tables, not this.
 */
const READING = [
  "**Reading of the profiles of 2026-12-04 (issue 50), and what would close each gap.** Taken on a shared " +
    "2-core machine under load (load average ~17), profiler on; compare within a table. The whole " +
    "`npm run bench` (37 min) was not run on this machine shared by ~8 engineers, so the glance table's " +
    "issue-50 rows fill in at the next full run; a partial run the same day, `BENCH_ROUNDS=3 npm run bench " +
    "-- gates` (~150 req/s under that load), gave CPU per request against no gates, median (rounds): leased " +
    "gate 1.00× (1.00 / 1.30 / 0.92), exact gate 1.62× (1.62 / 2.06 / 1.50), identity one caller 1.13× " +
    "(1.13 / 1.40 / 0.97), identity 500 callers 2.55× (1.47 / 5.68 / 2.55).",
  "",
  "- **REST read, 617 µs against the hand-written route's 480 µs per request (1.29× in this profile; " +
    "earlier profiles the same day gave 1.11× to 1.35×, the machine's noise; the goal is ≤ 1.05×).** Both " +
    "do the same Durable Object call (svc's under `invokeProcedure`, 93 µs; the Hono handler's " +
    "`(anonymous)` in src/worker.ts, 103 µs), the same SQL read (svc's under `exec`, `toArray`, `get`; the " +
    "hand-written one under `getRow`), and as much `(program)` (workerd outside JS: 105 and 99 µs). " +
    "Recording off costs the same here (617 µs). Ranked, what only svc runs: the procedure timeout race's " +
    "timer (`setTimeout` 16.3 + `clearTimeout` 14.9 µs: workerd's JS timers), the JSON answer " +
    "(`jsonResponse` 9.3 + `Headers` 9.2 + `sizedResponse` 7.1 µs, which encodes the body to know its size " +
    "for the call record), a second `URL` parse (+6.6 µs), the header-size walk (`forEach` 8.2 + " +
    "`refuseHugeHeaders` 4.8 µs), `shardKeyOf` (6.3 µs) and svc's value encoding (`parseJson` 5.3, " +
    "`stringifyJson` 4.6 µs). Changed after the first profiles: `Promise.race` and its promises in " +
    "`withTimeout` (one promise and one timer now; `withTimeout` itself had 10 µs and is out of the top 25), " +
    "a `TextEncoder` per response, and `jsonResponse`'s header copy and sets (a record now: no measurable " +
    "change; a version built from pairs was 2.5× costlier and the profile caught it — the gates profile " +
    "below was taken with it, which costs each of its targets alike). What would close the rest, in the " +
    "profile's order: a deadline without a timer per call (workerd offers none for a Durable Object RPC " +
    "call; moving the race into the shard takes it off the worker's isolate on Cloudflare but costs the " +
    "same locally), then the body size taken from workerd's own encoding of a string body instead of " +
    "encoding it in JS, one URL parse shared by the worker's steps, and a header-size cap checked without " +
    "a callback per header.",
  "- **Leased gate: −3 % CPU against no gates (goal ≤ +5 %: met in this profile).** What it still does per " +
    "request: `withLimitHeaders` and three `set`s of the `RateLimit-*` headers (≈ 18 µs). Its store calls, " +
    "counted in the gates run: 6.2 per 1,000 requests at 162 req/s, one per lease — a lease of 1,000 units " +
    "lives 1 s (`ttlMs`), so at that rate each served ~160 requests. Calls that arrive while a lease is " +
    "asked for now wait for it instead of each being decided in the store beside it.",
  "- **Exact gate: +51 % CPU (goal ≤ +25 %).** The difference is round trips: 201 store calls per 1,000 " +
    "requests (in-isolate coalescing joins ~5 decisions per call), and with them `(program)` (+39 µs) and " +
    "garbage. What would close it: a hot key's budget split over several store objects with exact per-part " +
    "budgets, so decisions of one key are answered in parallel (issue 50's Build 3, not built); coalescing " +
    "more decisions per call only helps where more are in flight.",
  "- **Identity, 500 callers: +12 % CPU (goal ≤ +10 %).** The time is in the cache misses: the gates run " +
    "counted 396 session-read statements per 1,000 requests (better-auth's `getSession`, ~3 ms of CPU per " +
    "call against ~0.64 ms for the whole read), because on this loaded machine more than the cache's 60 s " +
    "TTL passed between a target's rounds, so each round started cold; revocation log reads are " +
    "time-based (~4 a second, 54 statements per 1,000 requests at 134 req/s). What would close it: a miss " +
    "that costs one indexed D1 read of session and user by token instead of `getSession`, and renewing an " +
    "entry read while its caller is still active rather than letting it expire.",
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
