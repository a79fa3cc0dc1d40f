import type { CallScope } from "./call-scope.ts";
import { isoTime } from "./iso-time.ts";
import type { CallRecord, ConsoleLine } from "./record.ts";

/** How the call ended, as only its runner knows. */
export interface CallEnd {
  status: number;
  method: string | null;
  bytesIn: number;
  bytesOut: number;
  durationMs: number;
}

/**
 * The record of a finished call, from what its scope gathered, or `null`
 * when no entry point claimed the call (an unknown `/_svc/` path, a static
 * dashboard file: not calls). A failed call always carries a code: the svc
 * code of its problem answer, else `HTTP_<status>`; its error (message and
 * stack) is kept only when the answer was a failure.
 */
export function buildRecord(scope: CallScope, end: CallEnd): CallRecord | null {
  const { facts } = scope;
  if (facts.entry === undefined) return null;
  const failed = end.status >= 400;
  const code = failed ? (scope.code ?? `HTTP_${end.status}`) : null;
  const logs: ConsoleLine[] = scope.lines.map((line) => ({
    level: line.level,
    at: Math.max(0, line.time - scope.started),
    message: line.message,
  }));
  const record: CallRecord = {
    requestId: scope.requestId,
    time: isoTime(scope.started),
    entry: facts.entry,
    route: facts.route ?? "(unknown)",
    method: end.method,
    shardKey: facts.shardKey ?? null,
    caller: facts.caller ?? { kind: "anonymous" },
    status: end.status,
    code,
    durationMs: end.durationMs,
    bytesIn: end.bytesIn,
    bytesOut: end.bytesOut,
    logs,
    logsDropped: scope.dropped,
    error: failed ? (scope.failure ?? { message: code ?? "failed", stack: null }) : null,
  };
  if (facts.args !== undefined) record.args = facts.args;
  if (facts.queue !== undefined) record.queue = facts.queue;
  if (facts.cron !== undefined) record.cron = facts.cron;
  return record;
}

/** One line a person reads in `wrangler tail`: `rpc messages:send 403 FORBIDDEN 12ms`. */
export function summaryOf(record: CallRecord): string {
  const code = record.code === null ? "" : ` ${record.code}`;
  return `svc ${record.entry} ${record.route} ${record.status}${code} ${Math.round(record.durationMs)}ms`;
}
