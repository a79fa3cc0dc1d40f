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
    "day; 9 before), after RPC began to read its body whole; the transport profile from " +
    "`npm run bench -- --profile transport` an hour earlier (the REST read's path has not changed since); " +
    "the gates profile is from an earlier run. Profiler on, each target's window from a collected heap " +
    "and ending with the collection of its own garbage; the warm-up runs under the profiler, since code " +
    "V8 optimized with no profiler running charged native calls (SQL `exec`, `Response`) to its JS " +
    "caller. Compare within a table: the profiler's own cost is not spread evenly, and the machine's load " +
    "moves every target between runs. A JS function right next to a native call carries part of that " +
    "call's cost: `toShardCall` (17.3 µs) is the shard call's serialization, whose sum with `invokeThen` " +
    "is the same with recording on and off.",
  "",
  "- **REST read: 1.08× the hand-written route's CPU per request (27 rounds, middle half 1.06–1.10; goal " +
    "≤ 1.05×: not met); with recording off 1.06× (1.04–1.09).** The 27-round run an hour before put it at " +
    "1.10× (recording off 1.08×); six 9-round runs pooled (54 rounds) at 1.087. Where the gap sits, by " +
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
  "- **RPC read: 1.20× the hand-written route (middle half 1.18–1.22), from 1.31× in the run before.** It " +
    "read its JSON body through a stream reader a chunk at a time, with a `TextDecoder` made per call: " +
    "some 80 µs of an RPC call's CPU in its profile (`read` 29.8, `readBodyBytes` 29.1, the decoder 5.0, " +
    "`getReader` 4.4, …). A body whose declared length is within the cap is now read whole " +
    "(`arrayBuffer`, about 35 µs), and the route lost its `async` frames.",
  "- **Exact gate: not met, whatever its ratio (+34 %): its target answered 80,628 requests with 500.** " +
    "Once the gate has run under load for about 70 s in one isolate (about 140,000 requests), answers fail " +
    'with workerd\'s "Cannot perform I/O on behalf of a different request" (I/O type ' +
    "`ReadableStreamSource`: an answer's body made in another request's context), throughput falls from " +
    "~2,000 to 20–100 requests a second and stays there. The 9-round runs (27 s of its load) never reached " +
    "it; the first 27-round run did late (16,723 failures, +19 % then). The leased gate also starts " +
    "answering non-2xx after about 100 s of its load, a few dozen every 3 s (which status was not " +
    "inspected; none in this run's 81 s). Both share a promise between requests: a coalesced batch's " +
    "answer, a pending lease. A gate that fails is a defect before " +
    "it is a cost; the verdict counts failed requests since this run.",
  "- **Leased gate +3.4 % (middle half +2.2 to +6.2 %; goal ≤ +5 %), identity with 500 callers +5 % " +
    "(≤ +10 %) and with one +5 % (≤ +8 %): met.** The leased gate's store calls: 1.04 per 1,000 requests, " +
    "one per lease; the identities' revocation log reads 2.9 per 1,000 requests.",
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
      "work runs under the JS function that called it (`invokeThen` holds the Durable Object call's " +
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
