import { summaryOf } from "./build-record.ts";
import { plainConsole } from "./console-capture.ts";
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
 * Prints records' lines on the console (never captured as a handler's line).
 * Where the store cannot print them (none bound, or it did not take the
 * batch), the worker does.
 *
 * @example printRecords(batch);
 */
export function printRecords(records: readonly CallRecord[]): void {
  for (const record of records) plainConsole.log(consoleLine(record));
}
