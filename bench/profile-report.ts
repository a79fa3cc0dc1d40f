import type { Results } from "./results.ts";

/**
 * What the profiles of 2026-12-05 (issue 50) said, what changed before them,
 * and what would close each goal not met: a note kept with the code that
 * renders the tables, figures quoted from those profiles and from the
 * judging run of the same night. Re-profiling rewrites the tables, not this.
 */
const READING = [
  "**Reading of the profiles of 2026-12-05 (issue 50), and what would close each gap.** Taken after the " +
    "judging run of the same night, profiler on, each target's window from a collected heap and ending " +
    "with the collection of its own garbage; the warm-up runs under the profiler, since code V8 optimized " +
    "with no profiler running charged native calls (SQL `exec`, `Response`) to its JS caller. Compare " +
    "within a table: the profiler's own cost is not spread evenly (it put the leased gate at +30 µs, " +
    "+6 %, where the judging run measured +2 %). The glance table comes from one run of `BENCH_ROUNDS=9 " +
    "npm run bench -- --merge transport gates` that night.",
  "",
  "- **REST read: 1.08× the hand-written route's CPU per request in the judging run (rounds 1.04–1.14; " +
    "goal ≤ 1.05×; 1.12× in the judging run before); 472 against 424 µs in the transport profile (+48 µs, it was " +
    "+63; recording off +29, it was +42); 9,586 against 8,976 bytes allocated per request (+610, it was " +
    "+2,013; recording off 8,928, 48 bytes fewer than the hand-written route).** What changed since " +
    "that run: the REST path lost its `async` layers (each admission step runs as a plain call unless a " +
    "gate, resolver or `shardAccess` hook returns a promise; the shard's answer becomes the JSON response " +
    "in the call's own `then`), the shard's `call` and its unobserved run map their result without an " +
    "`async` method, the shard's deadlines sit in a linked list instead of a `Set`, the path and method " +
    "are read from workerd once, and the bench reads its variant header before every target, Hono's " +
    "too (it was read for svc targets alone: 0.6 % of the samples). Four 9-round `transport` runs, " +
    "alternating, gave 1.101 and 1.097 before the svc changes and 1.096 and 1.072 after; a base run " +
    "before the bench fix gave 1.128. What only svc still runs, by self time in this profile: the " +
    "header-size walk (`forEach` 8.8 µs and its caller 2.3; no runtime API gives a request's header " +
    "size, and `for…of` measured worse: 2.5 % of the samples against 1.8 %), the answer's three headers " +
    "(`sizedResponse` 7.8; `content-length` is declared for in-process callers and its test), the stored " +
    "document's JSON parse (`parseJson` 7.0) and the answer's encoding (`stringifyJson` 6.2, Hono's " +
    "`JSON.stringify` sits in its handler), the call record (`#finish` 3.9, the shipper 1.9, the scope " +
    "1.8, `randomUUID` 2.0) and `tableOfId` (2.0); the rest is under 2 µs a function. The Durable Object " +
    "call itself (`invokeThen` with `toShardCall`, 83 µs) costs what the Hono handler's call costs (93 µs " +
    "with its routing). From throwaway builds measured before these changes: a shard answering the read with its " +
    "one SQL statement made REST 1.06×, and a worker that also called it directly 1.00×. What would close " +
    "the last points is a design change on both sides: a query with no middleware, output check or RLS " +
    "rule run from the shard's RPC entry to its SQL without the dispatcher's `ctx`, and a header cap the " +
    "runtime checks (or a documented cap on what svc reads instead of the whole head).",
  "- **Leased gate: +2 % in the judging run (rounds 1.00–1.14; goal ≤ +5 %: met).** Its store calls: 1.0 " +
    "per 1,000 requests, one per lease; it allocates 324 bytes more per request than no gate (the " +
    "headers' record). In the judging run before, the bench had stopped Miniflare's own request log (`logRequests`), " +
    "whose entry worker copied every answer, each `RateLimit-*` header once more, to log a line the " +
    "bench dropped: the gate then went from +6.4 % to +2.8 % in two 5-round runs.",
  "- **Exact gate (+19 %, goal ≤ +25 %), identity with 500 callers (+2 %, goal ≤ +10 %) and with one " +
    "(+5 %, goal ≤ +8 %): met.** The exact gate's cost is its store round trips (118.5 per 1,000 " +
    "requests; 4,379 bytes more per request than no gate); the 500 callers' is their cached identities " +
    "(2,678).",
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
