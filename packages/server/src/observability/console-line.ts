import { summaryOf } from "./build-record.ts";
import { plainConsole } from "./console-capture.ts";
import { type ConsoleFormat, textLine } from "./console-format.ts";
import type { CallRecord } from "./record.ts";

/**
 * A record's line for Workers Logs and `wrangler tail`: `message` (what a
 * person reads) and `svc: "call"` first, then every field of the record.
 * `body` is the record's JSON when the caller has it already (the store
 * does), so it is not made twice.
 *
 * @example
 * ```ts
 * consoleLine(record); // {"message":"svc rest rows:get 200 3ms","svc":"call","requestId":…}
 * ```
 */
export function consoleLine(record: CallRecord, body = JSON.stringify(record)): string {
  return `{"message":${JSON.stringify(summaryOf(record))},"svc":"call",${body.slice(1)}`;
}

/**
 * A record's console line in `format`: {@link consoleLine} or, for a
 * terminal, {@link textLine}.
 *
 * @example lineIn("text", record) // "svc rest GET rows:get 200 3ms"
 */
export function lineIn(format: ConsoleFormat, record: CallRecord, body?: string): string {
  return format === "text" ? textLine(record) : consoleLine(record, body);
}

/**
 * Prints records' lines on the console (never captured as a handler's line).
 * Where the store cannot print them (none bound, or it did not take the
 * batch), the worker does.
 *
 * @example printRecords(batch, consoleFormatOf(env));
 */
export function printRecords(records: readonly CallRecord[], format: ConsoleFormat): void {
  for (const record of records) plainConsole.log(lineIn(format, record));
}
