import type { Results } from "./results.ts";

/**
 * What the profiles said (issue 50), what changed before them, and what
 * would close each goal not met: a note kept with the code that renders the
 * tables, figures quoted from the profiles and the full run of 2026-12-06
 * (the first straight to the worker's socket). Re-profiling rewrites the
 * tables, not this.
 */
const READING = [
  "**Reading of the profiles (issue 50), and what would close each gap.** The glance table is from the " +
    "full `npm run bench` of 2026-12-06 15:52–16:47 (27 rounds in transport and gates). The profiles were " +
    "taken after the full run of 06:20–07:13 that day, the first whose requests went to the worker's own " +
    "socket instead of through Miniflare's entry worker (see the top of this file), on the same REST " +
    "path. Profiler on, each target's window from a collected heap and ending with the " +
    "collection of its own garbage; the warm-up runs under the profiler, since code V8 optimized with no " +
    "profiler running charged native calls (SQL `exec`, `Response`) to its JS caller. Compare within a " +
    "table: the profiler's own cost is not spread evenly, and the machine's load moves every target " +
    "between takes (the no-gates baseline of the two gates profiles: 741 and 473 µs a request, so the " +
    "gates profile prices no gate this time). A JS function right next to a native call carries that " +
    "call's cost: `invokeJson` holds the shard call's serialization, as the Hono handler's `(anonymous)` " +
    "does.",
  "",
  "- **REST read: 1.14× the hand-written route's CPU per request in the glance's run (27 rounds, middle " +
    "half 1.09–1.16; goal ≤ 1.05×: not met), 1.10× (1.08–1.15) in the run of 06:20 on the same request " +
    "path: a run's median moves by some 4 %. With recording off 1.09× (1.05–1.12) and 1.07× (1.05–1.10); " +
    "recording's own share 1.05× (1.02–1.06) and 1.02× (1.01–1.06).** " +
    "The same code measured 1.08× through Miniflare's entry worker (27 rounds at 02:28 that night), " +
    "and 1.08× through it against 1.12× straight to the socket when both ways ran side by side (15 rounds): " +
    "the entry worker's 0.15 ms a request, the same for every target, had hidden about a third of every " +
    "gap, here and in the gates. In the profile (profiler on) svc's read takes 408 µs a request against " +
    "the hand-written route's 344 (+64), 388 with recording off (+44). svc-only self time, largest first: " +
    "`invokeJson` 67 µs (the shard call's send and answer; the Hono handler's own call sits in its " +
    "`(anonymous)`), `#row` 11 (the row read; `getRow` in the hand-written route), the stored document's " +
    "`parseJson` 6, the answer's `sizedResponse` 6, the header cap's `forEach` 5, the shard's " +
    "`stringifyJson` 4, then some forty functions of 2 µs or less each. `(garbage collector)` +7 µs and " +
    "native callbacks `(anonymous)` +9 µs follow how much svc allocates and calls, not one function.",
  "",
  "  **What the remaining gap is not, measured 2026-12-06 with both versions in one bundle** (a module " +
    "flag the bench worker set for the requests of one target, so the two code paths ran interleaved in " +
    "one process; 27 rounds; through the entry worker, which divides these effects by about 1.6): the " +
    "header cap's walk left out, 0.99× the same read with it; left out together — the walk, the shard " +
    "side of recording (console capture and the call's runner), `randomUUID` for the request id (a " +
    "counter instead), the `content-length` header, the procedure lookup's `hasOwn` (a `Map` instead) and " +
    "the OpenTelemetry API's exports read on every call (read once instead) — 1.000× (middle half " +
    "0.95–1.02). So every per-call piece that can go without changing what svc does is worth about 2 % " +
    "at most, straight to the socket. The dev registry's proxy to the log store's process, in the " +
    "measured workerd only because the store runs apart locally, took 0.011 busy samples a request " +
    "against the worker isolate's 2.6 (every isolate of the process profiled at once): 0.4 %. Closing " +
    "the last five points needs svc to do less per call, each a tested contract today: the header cap " +
    "left to the platform (Cloudflare refuses request headers over 128 KB before a worker runs; svc's " +
    "64 KiB cap, its `400` problem details and RELIABILITY.md's row rest on the walk), documents decoded " +
    "without a `JSON.parse` of each stored row (columns instead of `_doc`), and a record whose shard " +
    "side costs nothing when a call prints nothing. Measured before, and unaffected by the entry " +
    "worker (calls looped inside the worker, one HTTP request a round): throwaway builds that each left " +
    "one per-call feature out (24 rounds of 2,000 calls) put call recording at 3.6–6.3 % of a call, the " +
    "header cap's walk at 2.6–4.0 % (3.7 µs for the bench's 8 request headers, one `forEach` callback " +
    "each), the stored document's `JSON.parse` at 2.0–2.9 %, the procedure's deadline and argument " +
    "validation at 1 % each; a Durable Object call whose argument is a ten-field object and whose answer " +
    "an object costs 4 µs more than one with a string each way (28 against 24 µs, 15 rounds). A stub kept " +
    "across requests would save the stub's `get`, but workerd refuses its use from another request " +
    '("Cannot perform I/O on behalf of a different request", checked 2026-12-06). Two of those ' +
    "contracts dropped together still miss the goal: a throwaway worker with recording off and no header " +
    "walk, as a fifth target of one 27-round transport run (2026-12-06 18:25, `BENCH_ROUNDS=27 npm run " +
    "bench -- transport`), took 1.065× the hand-written route's CPU per request (middle half 0.99–1.11), " +
    "against 1.080× with recording off alone and 1.116× for the read as shipped.",
  "",
  "  Ruled out earlier the same morning (03:50–04:35, through the entry worker, CPU from /proc, per-round " +
    "ratios to the first target): **promise depth on the Durable Object's side** (a method answering a " +
    "value, `Promise.resolve` of it, or two `async` layers and a `then` as svc's call has: 1.000, 1.016, " +
    "0.971; 21 rounds of 3,000 requests); **the stored document's decode** (typed columns 1.000, svc's " +
    "`_doc` parsed and encoded again 1.043, its text passed through 0.950; the other order: 1.000, typed " +
    "columns 0.987, passed through 1.031: inside the machine's ±4 %); **the record's shipping** (the bench " +
    "app's REST read with records shipped, built but bound to no store through a throwaway variant, and " +
    "recording off: 1.094, 1.085 and 1.078× the hand-written route in 21 rounds). Over 160,000 requests " +
    "the worker's isolate ran 40–41 scavenges for svc, 25–30 with recording off and 23–34 for the " +
    "hand-written route (V8's `--trace-gc` through `MINIFLARE_WORKERD_V8_FLAGS`, printed by a throwaway " +
    "change, since `startBenchApp` drops workerd's lines); their times are wall clock and too noisy to price.",
  "- **RPC read: 1.28× the hand-written route (middle half 1.25–1.35).**",
  "- **Every gate goal met in one run: the glance's (2026-12-06 15:52, 27 rounds).** Exact gate in the " +
    "shard +7 % (middle half 0 to +20 %) against +33 % (+24 to +45 %) for the same gate decided in the " +
    "worker, 72 store calls per 1,000 requests; leased +2 %; identity +4 %, with 500 callers +5 % " +
    "(+1 to +15 %). The runs below are the earlier takes of the same code (the exact gate's deadline fix " +
    "of that afternoon only touches a call that joined a batch late, which a store answering in " +
    "milliseconds never makes).",
  "- **Exact gate, decided in the shard since 2026-12-06: +2 % (goal ≤ +25 %: met), 68 store calls per " +
    "1,000 requests, p50 6 ms; the same gate decided in the worker +31 % with 81, in the same run " +
    "(`npm run bench -- --merge gates`, 27 rounds, 2026-12-06 13:20; a 9-round run after it: +8 % " +
    "against +34 %).** This closed the goal by the design the reading below arrived at: the REST gate's " +
    "exact decision is made in the call's shard before the procedure runs (`createRestRateLimit`'s " +
    '`decideIn: "shard"`, the default), through `@svc/ratelimit`\'s per-object coalescer, whose calls ' +
    "await their batch's one promise (`inObject`); the worker keeps a cache of refusals (exact for a " +
    "bucket's `retryAfter`), decides unknown paths and calls that fail before their shard, and answers " +
    "the `RateLimit-*` headers or the `429` from the shard's verdict (docs/rest.md, where the gate is " +
    "decided). The reading of the 06:20 run, which led there, follows.",
  "- **Exact gate in the worker: +29 % (middle half +20 to +39 %; goal ≤ +25 %: not met), 80 store calls per 1,000 " +
    "requests, p50 7 ms (3 ms ungated); `coalesceMs` 3 +31 % with 112.** Through the entry worker the " +
    "same code measured +25.0 % (02:28, met by two hundredths of a point), +23 to +28 % in the runs before: " +
    "the met verdict was the dilution's. What went in earlier sessions: per-call work around the " +
    "coalescer (a second timer per batch, `objectName`'s `JSON.stringify` of every call's key, `keepNames`' " +
    "`__name` for arrows made per call, an `async` layer around every decision), about 2.3 % of the " +
    "exact target's busy samples. What is left: one timer and one wake per waiting call (0.98 looks " +
    "a request; creating the waiting calls' timers alone held 1.6 % of the busy samples in the gates " +
    "profile of 2026-12-06 02:20, about 12 µs a request), the batch's store call, and the answer's " +
    "`RateLimit-*` headers. Measured that afternoon with throwaway routes in the bench worker (workerd CPU " +
    "per await or call, medians of 9 to 11 interleaved rounds): a timer costs about 30 µs whether its " +
    "callback gets an argument or is a closure (30.6 and 30.5 µs; an awaited resolved promise 0.4), " +
    "`scheduler.wait` more (39.2 µs), and 100 timers firing in the same millisecond of one request cost " +
    "31.1 µs each, as much as one alone: under `nodejs_compat` the global `setTimeout` is Node's " +
    "`Timeout` wrapper around workerd's timer, and each timer's wake is an event of its own. So the one " +
    "look of a waiting call is about 30 µs that no rearrangement of the coalescer's own timers removes. " +
    "A store call carrying 12 decisions and answering 12 results cost 60.0 µs against 34.7 for a bare " +
    "Durable Object call, and 43.9 with decisions and results as plain number arrays (47.4 with one " +
    "decision, 111.8 with 64): a compact message would save about 1.3 µs a request at this scenario's " +
    "12.5 requests a store call. A longer interval does not help either: in one 9-round run of " +
    "`npm run bench -- gates` with the 3 ms target's limiter set to `coalesceMs: 10`, +28.2 % against " +
    "+24.5 % for the default 5 ms (whose rounds ran +18 to +27 %), 64 store calls per 1,000 requests " +
    "against 76, p50 11 ms against 6: with 16 connections each waiting for its answer, the longer wait " +
    "cut throughput (1,378 against 2,132 requests a second) about as much as it cut store calls. The " +
    "verdict sits on the machine's load (+24.5 % in those quiet rounds, +29 % in the full run's). Nor " +
    "would resuming a waiting request from the request whose store call answered: with a throwaway route " +
    "(9 rounds of 500 requests in batches of 50, workerd CPU per request), requests that each awaited a " +
    "5 ms timer cost 80.0 µs against 61.8 answering at once, and requests resumed by the batch's last one " +
    "through a promise of their own cost 80.3 µs with a 2 s deadline timer each and 77.3 without one, " +
    "when 67 of 4,550 failed with a `500` (workerd cancels a request with nothing of its own pending; " +
    'earlier, such waits also failed under sustained load with "Cannot perform I/O on behalf of a ' +
    'different request", bench/test/gates-sustained.test.ts). Whatever resumes a request, its wake ' +
    "costs 15 to 30 µs. What would close it: one wake per batch instead of one per waiting call, which a " +
    "Durable Object gives, since its calls share one I/O context. Measured with a throwaway prototype " +
    "on the hand-written route (its Durable Object coalesced the exact decisions of a key itself: calls " +
    "while a store call of the key was in flight, or within 5 ms of the last, joined one `limit` call " +
    "to the `RateLimitStore`, and each awaited that call's promise; no deadline, which one timer per batch would give), 15 rounds, CPU per request over the " +
    "ungated hand-written route: svc's limiter awaited in the worker +39 %, the decisions coalesced in " +
    "the object +11 % (0 errors; +28 % against +6 % in an 11-round run before), and svc's limiter " +
    "called as it is inside the object +111 %, its waiting calls' timers each an event of the object. " +
    "So the design that closes this goal: the REST gate's exact decision made in the shard before the " +
    "procedure runs, by a coalescer per Durable Object whose calls await their batch (built the same " +
    "day, first bullet above).",
  "- **Leased gate +3 % (middle half −2 to +11 %; goal ≤ +5 %: met), 1.0 store call per 1,000 requests " +
    "(one per lease).**",
  "- **Identity in the merged gates run of 13:20: 500 callers +14 % (not met), one caller +5 % (met).** " +
    "Nothing on that path changed since 06:20 (the 500-caller target has no rate-limit gate, and its " +
    "requests take the code they took then); a 9-round `BENCH_ROUNDS=9 npm run bench -- gates` right " +
    "after measured +1.7 %, with rounds from 0.96 to 1.53. This target has spread between +6 % and +20 % " +
    "across judged runs (the issue's table, the 06:20 run below): its verdict is the machine's load.",
  "- **Identity: 500 callers +6 % (middle half −2 to +18 %; goal ≤ +10 %: met), one caller +6 % " +
    "(+3 to +13 %; ≤ +8 %: met), 2.5 revocation log reads per 1,000 requests.** Through the entry worker " +
    "both measured +3 %. Looped inside the worker (21 rounds of 2,000 calls, no HTTP, 2026-12-05), the " +
    "identity costs the same whoever calls: 179 µs per call with 500 bearer tokens in turn, 188 with one, " +
    "185 with the session cookie, against 154 without identity, so the 500-caller target's spread over " +
    "HTTP is the machine's, not the cache's. `sessionIdentity` decides once per auth instance whether " +
    "its cache can use the revocation log (deciding per call had spent 0.91 % of the busy samples). What is left of its cost: the cached identity's " +
    "`JSON.parse` (a fresh copy per call), and the identity carried to the shard with the call.",
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
