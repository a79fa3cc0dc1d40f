import type { Results } from "./results.ts";

/**
 * What the profiles said (issue 50), what changed before them, and what
 * would close each goal not met: a note kept with the code that renders the
 * tables, figures quoted from the profiles and the judging run of
 * 2026-12-06 (02:28). Re-profiling rewrites the tables, not this.
 */
const READING = [
  "**Reading of the profiles (issue 50), and what would close each gap.** The glance table is from one " +
    "`npm run bench -- --merge transport gates` of 2026-12-06 at 02:28 (27 rounds), on the code that " +
    "shipped the night before (an exact rate-limit call builds no closure, key string or second timer); " +
    "both profiles from the same morning, 02:10 (transport) and 02:20 (gates), on the same code. " +
    "Profiler on, each target's window from a collected heap and ending " +
    "with the collection of its own garbage; the warm-up runs under the profiler, since code V8 optimized " +
    "with no profiler running charged native calls (SQL `exec`, `Response`) to its JS caller. Compare " +
    "within a table: the profiler's own cost is not spread evenly, and the machine's load moves every " +
    "target between runs (in this gates profile the leased gate cost +13 % against +0 % in the judged " +
    "run; the transport profile of the afternoon before had svc's REST read at 1.05× the hand-written " +
    "route, this one at 1.15×). A JS function right next to a native call carries that call's cost: " +
    "`invokeJson` holds the shard call's serialization, as the Hono handler's `(anonymous)` does.",
  "",
  "- **REST read: 1.08× the hand-written route's CPU per request (27 rounds, middle half 1.05–1.10; goal " +
    "≤ 1.05×: not met); with recording off 1.05× (1.03–1.09).** 1.07×, 1.09× and 1.11× in the three " +
    "27-round runs of the evening before, 1.08–1.09× in the six of the day before that, all with the same " +
    "REST code. Where the gap sits, from the raw samples of the transport profile (`BENCH_PROFILE_DIR`; each " +
    "sample counted under the task it ran in, times the workerd CPU per request; svc 617 µs a request, the " +
    "hand-written route 538 µs): **the worker's side is at parity**: svc's routing, admission and call " +
    "around the shard call, the header cap's walk included, 43 µs against Hono's 42; the Durable Object " +
    "call's send 111 µs against 111; the stub 9 µs (`get` of a kept id) against 11 (`getByName`); the " +
    "answer's `Response` 46 µs against 46. **The gap is the Durable Object's side, the record and the " +
    "runtime**: the shard's call 146 µs against `getRow`'s 94 (the row read itself 102 against 94, and " +
    "44 µs of JS around it over some forty functions: the document's decode 10, the answer's encoding 8, " +
    "argument validation 6, the deadline's race 4, dispatch, `ctx` and the record's scope 17), the " +
    "record's end in the worker 10 µs, and the runtime's own work (garbage collection +9 µs, `(program)` " +
    "+6, native callbacks +4). On this path every step costs several times its cost in a hot loop (SQL " +
    "`exec` 61 µs a request against 10 µs a call in a loop inside one request, Miniflare, CPU from /proc; " +
    "the document's `JSON.parse` 8 µs against under 1), so the gap follows how many steps svc takes, " +
    "not any one of them. A stub kept across requests would save the stub's 9 µs, but workerd refuses " +
    'its use from another request ("Cannot perform I/O on behalf of a different request", checked ' +
    "2026-12-06). What the gap is made of, measured with " +
    "throwaway builds that each left one of svc's per-call features out (calls looped inside the worker, " +
    "24 rounds of 2,000 calls): call recording 3.6–6.3 %, the header cap's walk 2.6–4.0 % (3.7 µs for the " +
    "bench's 8 request headers, one `forEach` callback each; over HTTP leaving it out measured 1.01×), the " +
    "stored document's `JSON.parse` 2.0–2.9 %, the procedure's deadline 1 %, argument validation 1 %. " +
    "Every one is a feature, not slack: closing the last points needs several made cheaper together (the " +
    "record's shard side, documents decoded without a `JSON.parse` of each stored row), or the header cap " +
    "left to the platform (Cloudflare refuses request headers over 128 KB before a worker runs; svc's " +
    "64 KiB cap is a tested contract). Measured outside the bench (a worker in Miniflare, CPU from /proc, " +
    "15 rounds): a Durable Object call whose argument is a ten-field object and whose answer an object " +
    "costs 4 µs more than the same call with one string each way (28 against 24 µs), under 1 % of the read.",
  "",
  "  Ruled out later the same morning (03:50–04:35), each over HTTP in Miniflare with CPU from /proc " +
    "and per-round ratios to the first target: **promise depth on the Durable Object's side** (a method " +
    "answering a value, `Promise.resolve` of it, or two `async` layers and a `then` as svc's call has: " +
    "1.000, 1.016, 0.971; 21 rounds of 3,000 requests); **the stored document's decode** (typed columns " +
    "1.000, svc's `_doc` parsed and encoded again 1.043, its text passed through 0.950; run again with the " +
    "parsed one first: 1.000, typed columns 0.987, passed through 1.031: inside the machine's ±4 %); **the " +
    "record's shipping** (the bench app's REST read with records shipped, with records built but bound to no " +
    "store through a throwaway variant, `logs: { console: false, store: <an unbound name> }`, and with " +
    "recording off, 21 rounds of the bench's own `compare`: 1.094, 1.085 and 1.078× the hand-written " +
    "route; 1.112, 1.090 and 1.051× in 15 rounds before: shipping about 1 %, inside the spread). The " +
    "worker's workerd runs three isolates (V8's `--trace-gc` through `MINIFLARE_WORKERD_V8_FLAGS`, its lines " +
    "read from Miniflare's structured-log handler, which the bench's `startBenchApp` drops: a throwaway " +
    "change printed them): the worker, Miniflare's entry worker, and the dev " +
    "registry's proxy to the store's process, busiest while records ship (24–29 scavenges against 7) but " +
    "whose collections took 7–14 ms over 160,000 requests: a cost of the local setup, not of a deployed " +
    "worker, too small to move the ratio. Over the same 160,000 requests the worker's isolate ran 40–41 " +
    "scavenges for svc, 25–30 with recording off and 23–34 for the hand-written route; their times (wall " +
    "clock, 35–45 ms a scavenge on the loaded machine) are too noisy to price.",
  "- **RPC read: 1.20× the hand-written route (middle half 1.15–1.28).**",
  "- **Exact gate: +25.0 % (24.98 %: met by two hundredths of a point; middle half +18 to +30 %; goal " +
    "≤ +25 %), 91 store calls per 1,000 requests, p50 8 ms (5 ms ungated); `coalesceMs` 3 +28 % with " +
    "127.** The 27-round runs of the evening before: +23 % after the per-call work below went (one timer " +
    "per batch: the store call's), +28 % with a second timer per batch put back to keep a late-joining " +
    "call's own timeout, +26 % with the store call's timer taken out instead (the code of this run); +20 % " +
    "in an 11-round run of the first. The six runs of the day before them: +27, +28, +24.8, +28, +27, " +
    "+27 %. So the gate moved from about +27 % to about +25 %, and one run decides the goal. What went: about 2.3 % of the exact target's busy samples in the gates profile before were " +
    "per-call work around the coalescer: the batch's first call set a timeout timer of its own beside its " +
    "store call's (0.6 % to set it, part of the 0.45 % clearing timers), `objectName`'s `JSON.stringify` " +
    "of every call's key (0.3 %), `keepNames`' `__name` for arrows made per call in the limiter, the store " +
    "client and the store's token bucket (0.7 %), and an `async` layer around every decision. A timer " +
    "costs more than its wake: creating the waiting calls' timers alone (workerd's native `setTimeout`, " +
    "under the Node.js-compatible wrapper `nodejs_compat` installs, which is not the cost) held 1.6 % of " +
    "the busy samples (1.8 % in the gates profile of 02:20, about 12 µs a request, against 0.5 % for the " +
    "one timer of each batch's sender, and 4.9 % for the store calls themselves). What is left: one timer and one wake per waiting call (a wake: 53.5 µs in section 2 " +
    "of this run, 47 and 26.5 µs in the two before), the batch's store call, and the answer's `RateLimit-*` " +
    "headers. What would close it for good: no timer per waiting call (a waiting request resumed by the " +
    "answer's own I/O, which workerd does not support across requests today), or fewer store calls " +
    "(a longer `coalesceMs`, at a hot key's latency).",
  "- **Leased gate −0 % (goal ≤ +5 %: met; +0, +3 and +3 % in the three runs of the evening before, +1 " +
    "to +6 % the day before), 1.1 store calls per 1,000 requests (one per lease).** Its middle half " +
    "(0.97–1.05) is inside the goal in this run.",
  "- **Identity: 500 callers +3 % (middle half −3 to +9 %; goal ≤ +10 %: met; +3 %, +6 %, +12 %, +4 %, " +
    "+14 % in earlier runs), one caller +3 % (middle half −2 to +8 %; ≤ +8 %: met).** Looped inside the worker (21 rounds of 2,000 calls, " +
    "no HTTP), the identity costs the same whoever calls: 179 µs per call with 500 bearer tokens in turn, " +
    "188 with one, 185 with the session cookie, against 154 without identity, so the 500-caller target's " +
    "spread over HTTP is the machine's, not the cache's. `sessionIdentity` decides once per auth instance " +
    "whether its cache can use the revocation log (it spent 0.91 % of the busy samples deciding per call). " +
    "What is left of the identity's cost: the cached identity's `JSON.parse` (a fresh copy per call), and " +
    "the identity carried to the shard with the call.",
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
