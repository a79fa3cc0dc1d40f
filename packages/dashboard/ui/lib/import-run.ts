/**
 * Runs an import, dry or real, as a series of `POST users/import` requests
 * (one per chunk of the file), and keeps an exact account of every row:
 * what the server answered for it, or that it was never sent. A stop (the
 * operator's Cancel, or a failed request) happens between requests, so the
 * report can always say which rows landed and which did not.
 */
import { csvRow } from "@svc/auth/admin-contract";
import { ApiError } from "../api/client.ts";
import type { ImportReport } from "../api/types.ts";
import type { ImportSourceRow } from "./import-file.ts";

/** What happened to one row of the file. */
export interface RowOutcome {
  /** Where the row is in the file (see {@link ImportSourceRow}). */
  row: number;
  email: string | null;
  /** The server's answer; `skipped` also for a repeat found across requests of a dry run. */
  status: ImportReport["results"][number]["status"];
  /** Plain reasons for `skipped` and `invalid` ("email: must be an email address"). */
  reasons: string[];
}

/** Why a run ended before its last request. */
export type RunStop =
  | { kind: "canceled" }
  | {
      kind: "failed";
      error: Error;
      /** The failed request's rows: the first and last row numbers, and how many. */
      rows: { first: number; last: number; count: number };
      /** Whether those rows may have landed anyway (the answer was lost, not a refusal). */
      uncertain: boolean;
    };

/** Where a run is, or where it ended. */
export interface RunState {
  /** Rows answered for so far. */
  done: number;
  total: number;
  outcomes: RowOutcome[];
  /** Set when the run ended early: the rows from `done` on were not answered for. */
  stop: RunStop | null;
}

/** Counts of a run's outcomes. */
export interface RunCounts {
  created: number;
  valid: number;
  skipped: number;
  invalid: number;
}

/**
 * Sends the chunks one after another, `onProgress` after each, until all
 * are answered, `shouldStop()` says so between two requests, or a request
 * fails. A dry run also marks as skipped the rows that repeat an id or email
 * of an earlier valid row in another request (the server sees one request at
 * a time, and the real import would skip them).
 *
 * @example
 * ```ts
 * const state = await runImport(importChunks(file.rows), (records) => api.importUsers({ query: { dryRun: true }, body: { type: "application/json", content: records } }), {
 *   dryRun: true, onProgress: setState, shouldStop: () => canceled.current,
 * });
 * ```
 */
export async function runImport(
  chunks: readonly ImportSourceRow[][],
  send: (records: Record<string, unknown>[]) => Promise<ImportReport>,
  options: { dryRun: boolean; onProgress: (state: RunState) => void; shouldStop: () => boolean },
): Promise<RunState> {
  const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const state: RunState = { done: 0, total, outcomes: [], stop: null };
  const seen: Seen = { id: new Map(), email: new Map(), username: new Map() };
  for (const chunk of chunks) {
    if (options.shouldStop()) {
      state.stop = { kind: "canceled" };
      break;
    }
    let report: ImportReport;
    try {
      report = await send(chunk.map((row) => row.record));
    } catch (thrown) {
      const error = thrown instanceof Error ? thrown : new Error(String(thrown));
      state.stop = {
        kind: "failed",
        error,
        rows: { first: chunk[0]!.row, last: chunk.at(-1)!.row, count: chunk.length },
        // A refusal (4xx) means the request's batch never ran; a lost answer or a 5xx may hide one that did.
        uncertain: !(error instanceof ApiError) || error.status === 0 || error.status >= 500,
      };
      break;
    }
    for (const result of report.results) {
      const source = chunk[result.index];
      if (source === undefined) continue;
      const outcome: RowOutcome = {
        row: source.row,
        email: result.email ?? emailOf(source.record),
        status: result.status,
        reasons: (result.errors ?? []).map((error) => `${error.field}: ${error.message}`),
      };
      if (options.dryRun && result.status === "valid") {
        const { username } = source.record;
        markRepeat(outcome, seen, {
          id: result.id,
          email: outcome.email,
          username: typeof username === "string" ? username.toLowerCase() : null,
        });
      }
      state.outcomes.push(outcome);
    }
    state.done += chunk.length;
    options.onProgress({ ...state, outcomes: [...state.outcomes] });
  }
  return state;
}

/** Row numbers of the valid rows seen so far, by the values a user must not share. */
type Seen = Record<"id" | "email" | "username", Map<string, number>>;

function markRepeat(
  outcome: RowOutcome,
  seen: Seen,
  keys: Record<keyof Seen, string | null>,
): void {
  const fields = Object.keys(seen) as (keyof Seen)[];
  const repeats = fields.flatMap((field) => {
    const value = keys[field];
    const earlier = value === null ? undefined : seen[field].get(value);
    return earlier === undefined ? [] : [`${field}: the same as row ${earlier}`];
  });
  if (repeats.length > 0) {
    outcome.status = "skipped";
    outcome.reasons.push(...repeats);
    return;
  }
  for (const field of fields) {
    const value = keys[field];
    if (value !== null) seen[field].set(value, outcome.row);
  }
}

function emailOf(record: Record<string, unknown>): string | null {
  return typeof record.email === "string" ? record.email : null;
}

/**
 * How many rows of each status a run has answered for.
 *
 * @example
 * ```ts
 * countOutcomes(state.outcomes); // { created: 0, valid: 2390, skipped: 5, invalid: 5 }
 * ```
 */
export function countOutcomes(outcomes: readonly RowOutcome[]): RunCounts {
  const counts: RunCounts = { created: 0, valid: 0, skipped: 0, invalid: 0 };
  for (const outcome of outcomes) counts[outcome.status]++;
  return counts;
}

/**
 * The rows that will not be (or were not) imported: skipped and invalid, in
 * file order.
 *
 * @example
 * ```ts
 * problemRows(state.outcomes).map((outcome) => outcome.row); // [7, 12]
 * ```
 */
export function problemRows(outcomes: readonly RowOutcome[]): RowOutcome[] {
  return outcomes
    .filter((outcome) => outcome.status === "skipped" || outcome.status === "invalid")
    .sort((a, b) => a.row - b.row);
}

/**
 * Outcomes as a CSV report (`row,email,status,reasons`), for fixing the
 * file in a spreadsheet: the dialog offers {@link problemRows}' rows.
 *
 * @example
 * ```ts
 * reportCsv([{ row: 7, email: "x", status: "invalid", reasons: ["email: must be an email address"] }]);
 * // "row,email,status,reasons\r\n7,x,invalid,email: must be an email address\r\n"
 * ```
 */
export function reportCsv(outcomes: readonly RowOutcome[]): string {
  return (
    csvRow(["row", "email", "status", "reasons"]) +
    outcomes
      .map((outcome) =>
        csvRow([outcome.row, outcome.email, outcome.status, outcome.reasons.join("; ")]),
      )
      .join("")
  );
}
