import { table, verdict } from "./lib/format.ts";
import { GOALS, percent, SECTION_TITLES, worstRoundRatio } from "./lib/goals.ts";
import { cpuOf, LOAD_HEADER, loadRows } from "./lib/load-table.ts";
import { type GatesResult, MANY_CALLERS, WAKES } from "./scenarios/gates.ts";
import type { RateLimitResult } from "./scenarios/ratelimit.ts";

const NO_GATES = "no gates";
const EXACT = "rate-limit gate";
const LEASED = "rate-limit gate, leased";
const IDENTITY = "identity from session cookie";
const IDENTITY_EXACT = "identity, getSession every call";

/** `0.13 ms` for a section 5 loop whose label starts with `prefix`, or `?` when not measured. */
function loopMs(rateLimit: RateLimitResult | undefined, prefix: string): string {
  const micros = rateLimit?.microsPerCall.find((row) => row.op.startsWith(prefix))?.micros;
  return micros === undefined ? "?" : `${(micros / 1000).toFixed(2)} ms`;
}

function exactLimitNote(gates: GatesResult, rateLimit: RateLimitResult | undefined): string {
  const { figures } = gates;
  return (
    `**Why the exact rate-limit gate costs more than ${percent(GOALS.exactLimitCost)}, and what would close it.** ` +
    `Workerd CPU per request in this run: ${cpuOf(figures, EXACT)} behind the gate against ` +
    `${cpuOf(figures, NO_GATES)} without. Every request of this run comes from one address, so every ` +
    "decision is of one key, in one `RateLimitStore` Durable Object. As the code stands, the gate is decided " +
    "in the call's shard (`decideIn: \"shard\"`): the shard's concurrent decisions of the key go as one store " +
    "call of up to 64, decided in order exactly as one by one, no sooner than `coalesceMs` (5 ms) after the " +
    "one before, and the calls await that store call's promise together, which a worker's requests may not " +
    "(in the worker each waiting call wakes on a timer of its own, the row decided in the worker). The store " +
    "writes ahead (`packages/ratelimit/src/algorithms/reserve.ts`): this bucket writes about every 0.6 s, not " +
    "per store call. Inside the worker, wall time per call in this run " +
    `(section 5): a bare Durable Object call ${loopMs(rateLimit, "bare")}, \`limit()\` on a hot key ` +
    `${loopMs(rateLimit, "limit(), one hot key, sequential")} one at a time and ` +
    `${loopMs(rateLimit, "limit(), one hot key, 32")} 32 at a time. What is left is the shard's store call ` +
    "per batch and its answer; section 1a's gates profile says which of them this run paid. What closes it " +
    "today for users who accept approximate counts: the leased mode (`lease: { units }` on the rate, row " +
    "below), one store call per lease instead of per batch, never admitting more than the limit."
  );
}

function leasedNote(gates: GatesResult): string {
  const base = gates.figures.find((figure) => figure.name === NO_GATES);
  const leased = gates.figures.find((figure) => figure.name === LEASED);
  const perRound =
    base && leased
      ? leased.rounds
          .map((rate, index) => percent(1 - rate / (base.rounds[index] ?? rate)))
          .join(", ")
      : "?";
  return (
    `**Why the leased gate missed ${percent(GOALS.leasedLimitCost)} in a round, and what would close it.** ` +
    "Its per-request work is a map lookup and a counter; a lease renewal is one store call per 1,000 units. " +
    `The per-round costs of this run were ${perRound} (median ${percent(gates.rateLimitLeasedCost)}); workerd ` +
    `CPU per request ${cpuOf(gates.figures, LEASED)} against ${cpuOf(gates.figures, NO_GATES)} without gates. ` +
    "Where the CPU figures agree within a few hundredths of a millisecond, the rounds' spread is this " +
    "machine's run-to-run noise (a shared virtual machine), not the gate: a quieter machine " +
    "or more rounds would tell. Where the gate's CPU is higher, section 1a's gates profile says where it goes, " +
    "and the glance table's store calls per 1,000 requests whether a lease saved them."
  );
}

function identityNote(gates: GatesResult): string {
  const { figures } = gates;
  return (
    `**Why identity from a session cookie (the default) costs more than ${percent(GOALS.identityCost)}, and what ` +
    "would close it.** The default `sessionIdentity(auth)` keeps each resolved identity per isolate, keyed by " +
    "the exact `cookie` and `authorization` headers: a repeated credential costs a map lookup and a " +
    "`structuredClone` of the identity, and while requests come each isolate reads the revocation log " +
    "(`svc_revocation`, one indexed D1 batch) at most every `revocationMs / 2` (250 ms by default), in the " +
    `background. Workerd CPU per request in this run: ${cpuOf(figures, IDENTITY)} by default, ` +
    `${cpuOf(figures, NO_GATES)} without identity, ${cpuOf(figures, IDENTITY_EXACT)} with \`getSession\` (a D1 ` +
    `read) every call${gates.identityExactCost === undefined ? "" : `, whose cost was ${percent(gates.identityExactCost)}`}. ` +
    "On local D1 the log reads run on the " +
    "worker's core (a D1 database is a Durable Object in the same workerd); on Cloudflare they are a network " +
    "round trip in the background, not worker CPU. The glance table counts session and log reads per " +
    "1,000 requests, and section 1a's gates profile splits the lookup and clone from the log reads."
  );
}

/**
 * BENCHMARKS.md's section 2: the REST read behind each gate, the throughput
 * costs against issue 32's goals, and a note per goal missed that quotes
 * this run's figures.
 *
 * @example
 * ```ts
 * gatesSection(results.gates, results.rateLimit);
 * ```
 */
export function gatesSection(gates: GatesResult, rateLimit?: RateLimitResult): string {
  const leasedWorst =
    1 -
    worstRoundRatio(
      gates.figures.find((figure) => figure.name === LEASED),
      gates.figures.find((figure) => figure.name === NO_GATES),
    );
  const notes: string[] = [];
  if (gates.rateLimitCost > GOALS.exactLimitCost) notes.push(exactLimitNote(gates, rateLimit));
  if (!(leasedWorst <= GOALS.leasedLimitCost)) notes.push(leasedNote(gates));
  if (gates.identityCost > GOALS.identityCost) notes.push(identityNote(gates));
  const costs: [string, number | undefined, number][] = [
    ["rate-limit gate, exact", gates.rateLimitCost, GOALS.exactLimitCost],
    [
      'rate-limit gate, exact, `decideIn: "worker"` (every gate before 2026-12-06)',
      gates.rateLimitInWorkerCost,
      GOALS.exactLimitCost,
    ],
    ["rate-limit gate, leased (approximate)", gates.rateLimitLeasedCost, GOALS.leasedLimitCost],
    ["rate-limit gate, leased, worst round", leasedWorst, GOALS.leasedLimitCost],
    ["identity from a session cookie (default)", gates.identityCost, GOALS.identityCost],
    ["identity, getSession every call", gates.identityExactCost, GOALS.identityCost],
    ["identity, cookie cache on", gates.identityCookieCacheCost, GOALS.identityCost],
    [
      `identity, ${MANY_CALLERS} callers (default)`,
      gates.manyCallers?.defaultCost,
      GOALS.identityCost,
    ],
    [
      `identity, ${MANY_CALLERS} callers, getSession every call`,
      gates.manyCallers?.exactCost,
      GOALS.identityCost,
    ],
    [
      `identity, ${MANY_CALLERS} callers, 1 s cache without the log`,
      gates.manyCallers?.ttlOneSecondCost,
      GOALS.identityCost,
    ],
  ];
  return [
    SECTION_TITLES.gates,
    "",
    "The REST read of section 1 (recording on, as shipped) through svc workers of one bench worker: no gates; " +
      "behind the REST rate-limit gate (`@svc/ratelimit`, a token bucket of 100,000,000 a minute that never " +
      "refuses; 5 ms between store calls of a key, `coalesceMs`'s default), decided in the call's shard " +
      '(the default) and again in the worker (`decideIn: "worker"`, as before 2026-12-06); ' +
      "the same gate in the leased mode (`lease: { units: 1000, ttlMs: 1000 }`); with the caller's " +
      "identity from a better-auth session cookie through the default `sessionIdentity(auth)` (identities " +
      "cached per isolate, checked against the revocation log); the same with `cache: false` (better-auth's " +
      "`getSession`, a D1 read, every call: the default before issue 32); through an auth instance with " +
      "better-auth's session cookie cache on; and " +
      `${MANY_CALLERS} callers, each request the next one's bearer token, under the default, \`cache: false\`, ` +
      "and a 1 s cache without the log. The single-caller targets all send the same cookies.",
    "",
    table(LOAD_HEADER, loadRows(gates.figures)),
    "",
    table(
      ["throughput cost", "measured", "goal", ""],
      costs
        .filter((cost): cost is [string, number, number] => cost[1] !== undefined)
        .map(([name, cost, budget]) => [
          name,
          percent(cost),
          `≤ ${percent(budget)}`,
          verdict(cost <= budget),
        ]),
    ),
    ...(gates.timerWakeUs === undefined
      ? []
      : [
          "",
          "A timer that wakes a request costs the worker's workerd " +
            `**${gates.timerWakeUs.toFixed(1)} µs** of CPU in this run (an awaited 0 ms timer less an awaited ` +
            `resolved promise, ${WAKES.count.toLocaleString("en-US")} of each in one request, median of ` +
            `${WAKES.rounds} rounds): an exact decision waiting ` +
            "for its batch's answer pays one per look. Since 2026-12-05 a waiting call first looks a " +
            "millisecond after the answer is expected (the store's running round trip plus twice its " +
            "spread), not at the estimate. Counted once on this scenario's exact target with a throwaway " +
            "counter in the limiter (2–3 rounds each): 1.37 looks per request before (46 % of the waiting " +
            "calls looked before their batch's answer was in, and again 1 ms later), 0.98 after.",
        ]),
    ...notes.flatMap((note) => ["", note]),
  ].join("\n");
}
