import { ratio, table, verdict } from "./lib/format.ts";
import { GOALS, percent, SECTION_TITLES, worstRoundRatio } from "./lib/goals.ts";
import { cpuOf, LOAD_HEADER, loadRows } from "./lib/load-table.ts";
import type { RegistryResult } from "./scenarios/registry.ts";
import { REST_RECORDING_OFF, type TransportResult } from "./scenarios/transport.ts";

const REST = "svc REST (GET)";
const HONO = "hand-written Hono → DO";

/** How much of REST's gap to the hand-written route is recording, from this run's recording-off target. */
function measuredSplit(transport: TransportResult): string {
  const { restRecordingOffVsHandWritten: offVsHono, restVsRecordingOff: onVsOff } = transport;
  if (offVsHono === undefined || onVsOff === undefined) {
    return (
      "This run has no recording-off target (results from before it existed), so it cannot say how " +
      "much of the gap is call recording."
    );
  }
  return (
    `The split, measured in this run: with recording off (\`logs: false\`, otherwise the same worker) REST ` +
    `reaches **${ratio(offVsHono)}** of the hand-written route, and the shipped read (recording on) ` +
    `**${ratio(onVsOff)}** of recording off. So call recording costs REST ${percent(1 - onVsOff)} of its ` +
    `throughput here (section 12 measures it on its own), and the rest of svc's request path leaves ${percent(1 - offVsHono)} ` +
    "against the hand-written route even without it."
  );
}

/** Why REST / hand-written missed its goal, from the figures of the same run. */
function handWrittenNote(transport: TransportResult, registry?: RegistryResult): string {
  const { figures } = transport;
  const registryRead =
    registry === undefined
      ? ""
      : ` (section 10: REST read with the registry on / off ${ratio(registry.readRatio)})`;
  return [
    `**Why REST / hand-written is below ${ratio(GOALS.restVsHandWritten)} in a round, and what would close it.** ` +
      "The worker's workerd has a core to itself (the load generator, Miniflare and the log store run on the " +
      "other), so throughput follows the worker's CPU per request: in " +
      `this run ${cpuOf(figures, REST)} for svc REST, ${cpuOf(figures, REST_RECORDING_OFF)} for the same read ` +
      `with recording off, ${cpuOf(figures, HONO)} for the hand-written route. ${measuredSplit(transport)}`,
    "",
    "The hand-written route does one Durable Object call (`getByName`, one RPC method) and one `SELECT`, " +
      "answered with `c.json`. svc's REST read does the same call, and around it, as the code stands " +
      "(section 1a's profile ranks them by self time): in the bench worker, `handleAuthRequest`'s path check " +
      "before every svc request, which the Hono route skips (the bench's router parses the URL once for " +
      "every target, through svc's `requestUrl`, so svc reuses it); the call " +
      "record (`CallRecorder.request`: a call scope handed along with the request, the record built at the " +
      "end, a push to the store shipper, whose batched writes go out in `waitUntil` and whose store prints " +
      "the console lines; in the shard, " +
      "`observeRun`'s console capture and the call run under its await-chain runner); the header-size cap and the route " +
      "lookup; the one admission step (`worker/admission.ts`: cross-site cookie check, shard key, request " +
      "gate, `resolveIdentity` — no gate and no resolver are configured on this worker —, `shardAccess`, and " +
      "the API key gate and scope check, a property read when no key calls); the dispatch span (none is started without an OpenTelemetry " +
      "SDK); the query-string arguments, validated in the shard; the structured clone of the call and its " +
      "answer; the RLS-aware `ctx.db`; the output check; the procedure timeout (one timer per shard, shard/deadlines.ts); problem-details " +
      "mapping. The shard registry adds nothing per read: a shard notes only writes and reports from its " +
      `alarm${registryRead}.`,
    "",
    "What would close it: first recording's share (section 12's note says where its cost is); then what " +
      "section 1a's profile ranks first among the functions the hand-written route does not run (its note " +
      "names them) — the split above bounds what they can win together.",
  ].join("\n");
}

/**
 * BENCHMARKS.md's section 1: REST, RPC, the hand-written route and REST with
 * recording off, the ratios against issue 32's goals, and when REST misses
 * the hand-written goal the measured reason.
 *
 * @example
 * ```ts
 * transportSection(results.transport, results.registry);
 * ```
 */
export function transportSection(transport: TransportResult, registry?: RegistryResult): string {
  const rest = transport.figures.find((figure) => figure.name === REST);
  const hono = transport.figures.find((figure) => figure.name === HONO);
  const worst = worstRoundRatio(rest, hono);
  const goal = GOALS.restVsHandWritten;
  const missed = !(transport.restVsHandWritten >= goal && worst >= goal);
  const ratios: string[][] = [
    [
      "REST / RPC",
      ratio(transport.restVsRpc),
      `≥ ${ratio(GOALS.restVsRpc)}`,
      verdict(transport.restVsRpc >= GOALS.restVsRpc),
    ],
    [
      "REST / hand-written",
      ratio(transport.restVsHandWritten),
      `≥ ${ratio(goal)}`,
      verdict(transport.restVsHandWritten >= goal),
    ],
    ["REST / hand-written, worst round", ratio(worst), `≥ ${ratio(goal)}`, verdict(worst >= goal)],
  ];
  if (transport.restRecordingOffVsHandWritten !== undefined) {
    ratios.push([
      "REST with recording off / hand-written",
      ratio(transport.restRecordingOffVsHandWritten),
      "",
      "",
    ]);
  }
  if (transport.restVsRecordingOff !== undefined) {
    ratios.push(["REST / REST with recording off", ratio(transport.restVsRecordingOff), "", ""]);
  }
  return [
    SECTION_TITLES.transport,
    "",
    "The same read of one row from a Durable Object's SQLite: svc REST (`GET /_svc/rest/rows/get`), svc RPC " +
      "(`POST /_svc/rpc`), a hand-written Hono route calling the Durable Object directly (`bench/app`), and the " +
      "svc REST read again from a worker with call recording off (`logs: false`), so the run shows how much of " +
      "REST's gap is recording. Ratios are medians of per-round ratios (each round runs every target back to back).",
    "",
    table([...LOAD_HEADER, "rounds (req/s)"], loadRows(transport.figures, true)),
    "",
    table(["ratio", "measured", "goal", ""], ratios),
    ...(missed ? ["", handWrittenNote(transport, registry)] : []),
  ].join("\n");
}
