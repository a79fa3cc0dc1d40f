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
    "`npm run bench -- --merge transport gates` of 2026-12-05 at 21:10 (27 rounds), after the rate " +
    "limiter's waiting calls came to look for their batch's answer a millisecond after it is expected " +
    "and `sessionIdentity` to decide its cache once per auth instance; the gates profile from " +
    "`npm run bench -- --profile gates` right after it, the transport profile from an hour before (no " +
    "REST code changed since). Profiler on, each target's window from a collected heap and ending with " +
    "the collection of its own garbage; the warm-up runs under the profiler, since code V8 optimized " +
    "with no profiler running charged native calls (SQL `exec`, `Response`) to its JS caller. Compare " +
    "within a table: the profiler's own cost is not spread evenly, and the machine's load moves every " +
    "target between runs. A JS function right next to a native call carries that call's cost: " +
    "`invokeJson` holds the shard call's serialization, as the Hono handler's `(anonymous)` does.",
  "",
  "- **REST read: 1.08× the hand-written route's CPU per request (27 rounds, middle half 0.99–1.13; goal " +
    "≤ 1.05×: not met); with recording off 1.11× (1.06–1.18).** 1.08–1.09× in all six 27-round runs of " +
    "2026-12-05. No svc function holds more than 2 % of the samples any more (counted from the raw samples " +
    "of a transport profile of the same code, `BENCH_PROFILE_DIR`): outside the row read itself (the same " +
    "`exec` and `toArray` as the hand-written route's), the shard's side of a call is about 5.6 % of the " +
    "busy samples spread over some forty functions (the document's `JSON.parse` 1.3 %, the deadline's " +
    "race 0.6 %, argument validation 0.5 %, none else above 0.3 %), and the worker's side adds the header " +
    "cap's walk (1.9 %) and the answer's `sizedResponse` (1.4 %). What the gap is made of, measured with " +
    "throwaway builds that each left one of svc's per-call features out (calls looped inside the worker, " +
    "24 rounds of 2,000 calls): call recording 3.6–6.3 %, the header cap's walk 2.6–4.0 % (3.7 µs for the " +
    "bench's 8 request headers, one `forEach` callback each; over HTTP leaving it out measured 1.01×), the " +
    "stored document's `JSON.parse` 2.0–2.9 %, the procedure's deadline 1 %, argument validation 1 %. " +
    "Every one is a feature, not slack: closing the last points needs several made cheaper together (the " +
    "record's shard side, documents decoded without a `JSON.parse` of each stored row), or the header cap " +
    "left to the platform (Cloudflare refuses request headers over 128 KB before a worker runs; svc's " +
    "64 KiB cap is a tested contract).",
  "- **RPC read: 1.21× the hand-written route (middle half 1.14–1.28), 1.31× before 2026-12-05.**",
  "- **Exact gate: +27 % (middle half +15 to +33 %; goal ≤ +25 %: not met), 98 store calls per 1,000 " +
    "requests, p50 9 ms (6 ms ungated); `coalesceMs` 3 +30 % with 130.** Section 2 measures what a timer " +
    "that wakes a request costs workerd: 38 µs in this run, 28 µs in the run before, 6–8 % of a whole REST " +
    "read. A coalesced call waits for its batch's answer on timers of its own request (awaiting a promise " +
    "another request settles broke workerd after some 130,000 calls: bench/test/gates-sustained.test.ts), " +
    "so each waiting call pays at least one wake: 0.9 per request at batches of ten, a fifth to a quarter " +
    "of the gate's added 140 µs. Looking a millisecond after the expected answer took the looks per " +
    "request from 1.37 to 0.98 (counted once with a throwaway counter); the 27-round runs of the day " +
    "before it: +27, +28, +24.8, +28, +27 %, after it +27, +27 %: the saving (about 11 µs, 2 points) is " +
    "inside the run-to-run spread. The rest is the batch's store call (`#send`: serialization both ways " +
    "and the store's turn), `(program)` around the wakes, and the answer's `RateLimit-*` headers. What " +
    "would close it: no wake per waiting call (a waiting request resumed by the answer's own I/O, which " +
    "workerd does not support across requests today), or fewer, cheaper store calls per request.",
  "- **Leased gate +6 % (goal ≤ +5 %: not met; +1 % in the run before, +3 % and +6 % earlier), 1.1 store " +
    "calls per 1,000 requests (one per lease).** Its code did not change between these runs: its middle " +
    "half (0.99–1.13) straddles the goal, and one 27-round run decides it by the machine's load.",
  "- **Identity: 500 callers +4 % (goal ≤ +10 %: met; +14 % and +12 % in the two runs before), one " +
    "caller +8 % (≤ +8 %: met).** Looped inside the worker (21 rounds of 2,000 calls, no HTTP), the " +
    "identity costs the same whoever calls: 179 µs per call with 500 bearer tokens in turn, 188 with one, " +
    "185 with the session cookie, against 154 without identity. In the gates profile of the run before, " +
    "`sessionIdentity` spent 0.91 % of the busy samples deciding, on every call, whether the auth " +
    "instance's database carries the revocation log (three property reads on the binding, through the " +
    "bench's counting proxy), more than its cache lookup (0.71 %); it now decides once per instance (the resolver: 2.1 % of the " +
    "samples before, 1.1 % in this gates profile). " +
    "What is left of the identity's cost: the cached identity's `JSON.parse` (a fresh copy per call), " +
    "and the identity carried to the shard with the call.",
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
