/** The fields of a call record the `svc logs` lines show (the admin API's record, docs/observability.md). */
export interface RecordLine {
  requestId: string;
  time: string;
  entry: string;
  route: string;
  shardKey: string | null;
  caller: { kind: string; id?: string };
  status: number;
  code: string | null;
  durationMs: number;
  logs: { level: string; at: number; message: string }[];
  error: { message: string; stack: string | null } | null;
}

/**
 * One call as `svc logs` prints it: time, status and code, entry point,
 * function, duration, caller and shard on one line; then, indented, the
 * error message and (with `verbose`) the console lines and the stack.
 *
 * @example
 * ```text
 * 2026-11-25T09:00:00.000Z 401 UNAUTHENTICATED rpc messages:send 7ms anonymous default
 *     Sign in to send messages.
 * ```
 */
export function formatRecordLine(record: RecordLine, verbose = false): string {
  const status = record.code === null ? String(record.status) : `${record.status} ${record.code}`;
  const caller =
    record.caller.id === undefined
      ? record.caller.kind
      : `${record.caller.kind}:${record.caller.id}`;
  const head = [
    record.time,
    status,
    record.entry,
    record.route,
    `${Math.round(record.durationMs)}ms`,
    caller,
    record.shardKey ?? "-",
  ].join(" ");
  const lines = [head];
  if (record.error !== null) lines.push(`    ${record.error.message}`);
  if (verbose) {
    for (const line of record.logs) lines.push(`    [${line.level} +${line.at}ms] ${line.message}`);
    if (record.error?.stack)
      lines.push(...record.error.stack.split("\n").map((text) => `    ${text}`));
  }
  return lines.join("\n");
}
