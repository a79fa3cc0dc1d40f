import { plainConsole } from "../console-capture.ts";
import type { ConsoleFormat } from "../console-format.ts";
import { lineIn } from "../console-line.ts";
import type { CallRecord } from "../record.ts";
import { clearMeta, meta, setMeta } from "./meta.ts";

/**
 * Characters of call lines one store invocation prints. Workers Logs keeps
 * 256 KB of log events per invocation and drops the rest; what does not fit
 * is printed by the next alarm, a new invocation with a budget of its own.
 */
export const LINE_BUDGET_CHARS = 200_000;

const FROM = "console_from";
const TO = "console_to";
/** 1 while the lines still to print are in the text format (the store keeps numbers only). */
const TEXT = "console_text";
/** Stored records read back per alarm: more than one budget's worth of lines. */
const READ_BACK = 1_000;

/** The `seq` range of stored records whose lines are still to print, if any. */
function pendingRange(sql: SqlStorage): { from: number; to: number } | null {
  const from = meta(sql, FROM);
  const to = meta(sql, TO);
  return from === null || to === null ? null : { from, to };
}

function setPending(sql: SqlStorage, from: number, to: number, format: ConsoleFormat): void {
  setMeta(sql, FROM, from);
  setMeta(sql, TO, to);
  setMeta(sql, TEXT, format === "text" ? 1 : 0);
}

/** Prints lines in order while they fit the budget; answers how many were printed. */
function printWithin(lines: Iterable<string>): number {
  let chars = 0;
  let printed = 0;
  for (const line of lines) {
    if (printed > 0 && chars + line.length > LINE_BUDGET_CHARS) break;
    chars += line.length;
    plainConsole.log(line);
    printed++;
  }
  return printed;
}

/**
 * Prints the lines of a batch the store just wrote (rows `firstSeq` on, in
 * order), within this invocation's budget. Answers `true` when some are left
 * for {@link printPending} (the caller sets an alarm): the ones past the
 * budget, or the whole batch while older lines still wait, so lines keep
 * their order.
 *
 * @example
 * ```ts
 * if (printBatch(sql, records, bodies, written.firstSeq, "json")) await ctx.storage.setAlarm(Date.now());
 * ```
 */
export function printBatch(
  sql: SqlStorage,
  records: readonly CallRecord[],
  bodies: readonly string[],
  firstSeq: number,
  format: ConsoleFormat,
): boolean {
  const lastSeq = firstSeq + records.length - 1;
  const pending = pendingRange(sql);
  if (pending !== null) {
    setPending(sql, pending.from, lastSeq, format);
    return true;
  }
  const lines = (function* () {
    for (const [index, record] of records.entries()) yield lineIn(format, record, bodies[index]);
  })();
  const printed = printWithin(lines);
  if (printed === records.length) return false;
  setPending(sql, firstSeq + printed, lastSeq, format);
  return true;
}

/**
 * Prints the next lines left over by {@link printBatch}, read back from the
 * stored records (ones pruned meanwhile are skipped). Answers `true` while
 * more remain.
 *
 * @example
 * ```ts
 * override async alarm() { if (printPending(sql)) await ctx.storage.setAlarm(Date.now()); }
 * ```
 */
export function printPending(sql: SqlStorage): boolean {
  const pending = pendingRange(sql);
  if (pending === null) return false;
  const format: ConsoleFormat = meta(sql, TEXT) === 1 ? "text" : "json";
  const rows = sql
    .exec(
      "SELECT seq, body FROM _svc_calls WHERE seq BETWEEN ? AND ? ORDER BY seq LIMIT ?",
      pending.from,
      pending.to,
      READ_BACK,
    )
    .toArray();
  const printed = printWithin(
    (function* () {
      for (const { body } of rows) yield lineIn(format, JSON.parse(String(body)), String(body));
    })(),
  );
  if (printed < rows.length) {
    setPending(sql, Number(rows[printed]!.seq), pending.to, format);
    return true;
  }
  const last = rows.at(-1);
  if (last === undefined || Number(last.seq) >= pending.to) {
    clearMeta(sql, FROM, TO, TEXT);
    return false;
  }
  // A full read-back, all printed, with more of the range after it.
  setPending(sql, Number(last.seq) + 1, pending.to, format);
  return true;
}
