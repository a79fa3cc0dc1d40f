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
    "`npm run bench -- --merge transport gates` of 2026-12-05 (27 rounds, the judging plan since that " +
    "day; 9 before), gates measured again by `--merge gates` with both coalescing intervals as targets; the transport profile from " +
    "`npm run bench -- --profile transport` an hour earlier (the REST read's path has not changed since); " +
    "the gates profile from `npm run bench -- --profile gates` right after (the exact gate's extra " +
    "183.5 µs per request is spread thin: 128.8 of it in functions outside the top 25, none of them " +
    "ranked). Profiler on, each target's window from a collected heap " +
    "and ending with the collection of its own garbage; the warm-up runs under the profiler, since code " +
    "V8 optimized with no profiler running charged native calls (SQL `exec`, `Response`) to its JS " +
    "caller. Compare within a table: the profiler's own cost is not spread evenly, and the machine's load " +
    "moves every target between runs. A JS function right next to a native call carries part of that " +
    "call's cost: `toShardCall` (17.3 µs) is the shard call's serialization, whose sum with `invokeThen` " +
    "is the same with recording on and off.",
  "",
  "- **REST read: 1.09× the hand-written route's CPU per request (27 rounds, middle half 1.07–1.12; goal " +
    "≤ 1.05×: not met); with recording off 1.06× (1.03–1.08).** The same code's three 27-round runs: 1.10×, " +
    "1.08×, 1.09×; six 9-round runs pooled (54 rounds) at 1.087. Where the gap sits, by " +
    "inclusive time per request from the profiles' call stacks (this profile, and one of the same code " +
    "taken an hour before): the shard's side of the call (svc's `call` against the hand-written object's " +
    "`getRow`) +20 and +31 µs; the worker's side up to the shard call (svc's `fetch` against Hono's route) " +
    "−9 and −24 µs, so svc's routing and admission already cost less than Hono's router; the answer, the " +
    "call record and the runtime's own work +35 and +26 µs, of which `(program)` and the collector move by " +
    "±10 µs from one profile to the next. On the shard's side svc runs what the hand-written object does " +
    "(`exec`, `toArray`) plus its dispatch (some 12 µs of small functions: the deadline race, the " +
    "await-scope runner, argument validation, `ctx`) and the stored document's `JSON.parse` (7.2; " +
    "documents are stored as JSON). What would close the last points is not a local change but design " +
    "changes together: a query run from the shard's RPC entry straight to its SQL (1.06× in an earlier " +
    "throwaway build, 3–4 points), the header cap's walk (`forEach` 8.4 + `refuseHugeHeaders` 2.0 µs, " +
    "about 2 points; no runtime API gives a request's header size, and the cap's exact total is a tested " +
    "contract) and the call record (about 2 points; on by default, DESIGN.md).",
  "- **RPC read: 1.20× the hand-written route (middle half 1.16–1.23; 1.20× in the run before too), from 1.31×.** It " +
    "read its JSON body through a stream reader a chunk at a time, with a `TextDecoder` made per call: " +
    "some 80 µs of an RPC call's CPU in its profile (`read` 29.8, `readBodyBytes` 29.1, the decoder 5.0, " +
    "`getReader` 4.4, …). A body whose declared length is within the cap is now read whole " +
    "(`arrayBuffer`, about 35 µs), and the route lost its `async` frames.",
  "- **Exact gate: +24.8 % (middle half +20 to +30 %; goal ≤ +25 %): met in this run by 0.2 points, " +
    "within its noise (±1.3 points over 27 rounds); +27 % and +28 % in the two 27-round runs before it, so " +
    "not a settled pass. It no longer fails.** Until 2026-12-05 it broke under sustained load: after " +
    "130,000–140,000 gated requests in one isolate (three runs), store calls went unanswered (1 s timeouts) " +
    'and every answer after was a 500, workerd\'s "Cannot perform I/O on behalf of a different request". ' +
    "Coalesced calls, the next batch's sender and calls waiting for a lease awaited promises that other " +
    "requests settled. They now read the answer, written into the batch (or lease) record, on timers of " +
    "their own (`whenSettled` in @svc/ratelimit): 180,000 requests through each gate answer 2xx " +
    "(bench/test/gates-sustained.test.ts, in `npm run test:slow`; it failed at 141,828 before). This run " +
    "has both coalescing intervals as targets: `coalesceMs` 5 (the default since) +24.8 % with 95.8 store " +
    "calls per 1,000 requests, p50 9 ms; 3 ms +26.6 % with 124.5, p50 8 ms (6 ms ungated); 5 ms against " +
    "3 ms per round 0.98×. Fewer wake-ups did not move it (first look at mean + 4× spread of the round " +
    "trip: misses 342 → 217 per 1,000 requests, ratio 1.26 either way): a store call costs the isolate far " +
    "more than a waiting call's timer. What would make the goal hold with margin: fewer store calls per " +
    "request (a longer interval trades latency for them) or a cheaper store call; a profile of this " +
    "target should say which part of a store call costs most.",
  "- **Leased gate, identity with 500 callers and with one: met** (figures in the table above; the leased " +
    "gate's store calls 1.1 per 1,000 requests, one per lease; the identities' revocation log reads 3.6–4.0 " +
    "per 1,000 requests).",
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
      "work runs under the JS function that called it (`invokeJson` holds the Durable Object call's " +
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
