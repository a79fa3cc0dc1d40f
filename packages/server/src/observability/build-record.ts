import type { CallScope } from "./call-scope.ts";
import { ANONYMOUS } from "./caller.ts";
import { isoTime } from "./iso-time.ts";
import type {
  Caller,
  CallFailure,
  CallRecord,
  ConsoleLine,
  CronFacts,
  EntryPoint,
  QueueFacts,
} from "./record.ts";

/** How the call ended, as only its runner knows. */
export interface CallEnd {
  status: number;
  method: string | null;
  bytesIn: number;
  bytesOut: number;
  durationMs: number;
}

/**
 * The optional facts of a record, present only on the calls that have them:
 * recorded arguments, a queue message's facts, a cron run's.
 */
interface ExtraFacts {
  args?: unknown;
  queue?: QueueFacts;
  cron?: CronFacts;
}

/**
 * A record's facts in a fixed order, what the worker ships to the log store
 * (as JSON text) instead of the record: no record object, no ISO time text
 * and an array's JSON on the call's path, the record made from them once by
 * the store ({@link recordOf}). The first item tells them from a record's
 * JSON text, and which layout they have.
 */
export type RecordFacts = [
  layout: typeof FACTS_LAYOUT,
  requestId: string,
  /** When the call started, epoch milliseconds. */
  started: number,
  entry: EntryPoint,
  route: string,
  method: string | null,
  shardKey: string | null,
  caller: Caller,
  status: number,
  code: string | null,
  durationMs: number,
  bytesIn: number,
  bytesOut: number,
  logs: ConsoleLine[],
  logsDropped: number,
  error: CallFailure | null,
  extra?: ExtraFacts,
];

/** The first item of {@link RecordFacts}: its layout, version 1. */
export const FACTS_LAYOUT = "svc.facts.1";

/**
 * The facts of a finished call's record, from what its scope gathered, or
 * `null` when no entry point claimed the call (an unknown `/_svc/` path, a
 * static dashboard file: not calls). A failed call always carries a code:
 * the svc code of its problem answer, else `HTTP_<status>`; its error
 * (message and stack) is kept only when the answer was a failure.
 *
 * @example const facts = factsOf(scope, { status: 200, method: "GET", bytesIn: 0, bytesOut: 12, durationMs: 3 });
 */
export function factsOf(scope: CallScope, end: CallEnd): RecordFacts | null {
  const { entry, started } = scope;
  if (entry === undefined) return null;
  const failed = end.status >= 400;
  const code = failed ? (scope.code ?? `HTTP_${end.status}`) : null;
  const logs: ConsoleLine[] = scope.lines.map((line) => ({
    level: line.level,
    at: Math.max(0, line.time - started),
    message: line.message,
  }));
  const facts: RecordFacts = [
    FACTS_LAYOUT,
    scope.requestId,
    started,
    entry,
    scope.route ?? "(unknown)",
    end.method,
    scope.shardKey ?? null,
    scope.caller ?? ANONYMOUS,
    end.status,
    code,
    end.durationMs,
    end.bytesIn,
    end.bytesOut,
    logs,
    scope.dropped,
    failed ? (scope.failure ?? { message: code ?? "failed", stack: null }) : null,
  ];
  const { args, queue, cron } = scope;
  if (args !== undefined || queue !== undefined || cron !== undefined) {
    facts.push({ args, queue, cron });
  }
  return facts;
}

/**
 * The record the facts describe: the one place a record's fields and their
 * order are written, so a record made in the worker (its console line) and
 * one made in the log store (from the facts' JSON) are the same text.
 *
 * @example recordOf(factsOf(scope, end)!).requestId === scope.requestId
 */
export function recordOf(facts: RecordFacts): CallRecord {
  const extra = facts[16];
  const record: CallRecord = {
    requestId: facts[1],
    time: isoTime(facts[2]),
    entry: facts[3],
    route: facts[4],
    method: facts[5],
    shardKey: facts[6],
    caller: facts[7],
    status: facts[8],
    code: facts[9],
    durationMs: facts[10],
    bytesIn: facts[11],
    bytesOut: facts[12],
    logs: facts[13],
    logsDropped: facts[14],
    error: facts[15],
  };
  if (extra?.args !== undefined) record.args = extra.args;
  if (extra?.queue !== undefined) record.queue = extra.queue;
  if (extra?.cron !== undefined) record.cron = extra.cron;
  return record;
}

/** One line a person reads in `wrangler tail`: `rpc messages:send 403 FORBIDDEN 12ms`. */
export function summaryOf(record: CallRecord): string {
  const code = record.code === null ? "" : ` ${record.code}`;
  return `svc ${record.entry} ${record.route} ${record.status}${code} ${Math.round(record.durationMs)}ms`;
}
