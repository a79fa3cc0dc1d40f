import type { CallRecord, EntryPoint } from "../record.ts";
import type { ErrorGroupRow, RollupRow, WindowRollups } from "./endpoint.ts";
import { ROLLUP_UNITS, type RollupUnit } from "./rollup-units.ts";
import { BUCKET_COLUMNS } from "./schema.ts";

type Row = Record<string, SqlStorageValue>;

const HISTOGRAM_SUMS = BUCKET_COLUMNS.map((column) => `sum(${column}) AS ${column}`).join(", ");

function rollupOf(row: Row): RollupRow {
  return {
    bucket: Number(row.bucket ?? 0),
    entry: String(row.entry) as EntryPoint,
    route: String(row.route),
    code: String(row.code),
    calls: Number(row.calls),
    durationSum: Number(row.duration_sum),
    histogram: BUCKET_COLUMNS.map((column) => Number(row[column] ?? 0)),
  };
}

/**
 * A window's roll-ups from `from` on: calls and failures per (bucket of
 * `step` ms, entry, route) for sparklines, and per (entry, route, code) the
 * window's totals with their histograms. Summed in SQL from the table whose
 * buckets fit the window, so a window answers a few rows per function.
 */
export function rollupRows(
  sql: SqlStorage,
  unit: RollupUnit,
  from: number,
  step: number,
): WindowRollups {
  const { table } = ROLLUP_UNITS[unit];
  const series = sql
    .exec(
      `SELECT (bucket / ?) * ? AS bucket, entry, route, sum(calls) AS calls,
         sum(CASE WHEN code = '' THEN 0 ELSE calls END) AS errors
       FROM ${table} WHERE bucket >= ? GROUP BY 1, entry, route`,
      step,
      step,
      from,
    )
    .toArray()
    .map((row) => ({
      bucket: Number(row.bucket),
      entry: String(row.entry) as EntryPoint,
      route: String(row.route),
      calls: Number(row.calls),
      errors: Number(row.errors),
    }));
  const totals = sql
    .exec(
      `SELECT entry, route, code, sum(calls) AS calls, sum(duration_sum) AS duration_sum, ${HISTOGRAM_SUMS}
       FROM ${table} WHERE bucket >= ? GROUP BY entry, route, code`,
      from,
    )
    .toArray()
    .map(rollupOf);
  return { series, totals };
}

/** The never-pruned totals per (entry, route, code), for Prometheus counters. */
export function totalRows(sql: SqlStorage): RollupRow[] {
  return sql
    .exec(
      `SELECT entry, route, code, calls, duration_sum, ${BUCKET_COLUMNS.join(", ")} FROM _svc_call_totals`,
    )
    .toArray()
    .map(rollupOf);
}

/** Error groups last seen since `since`, most recent first. */
export function groupRows(sql: SqlStorage, since: number, limit: number): ErrorGroupRow[] {
  return sql
    .exec(
      `SELECT fingerprint, code, route, shape, count, first_seen, last_seen, sample
       FROM _svc_error_groups WHERE last_seen >= ? ORDER BY last_seen DESC LIMIT ?`,
      since,
      limit,
    )
    .toArray()
    .map((row) => ({
      fingerprint: String(row.fingerprint),
      code: String(row.code),
      route: String(row.route),
      shape: String(row.shape),
      count: Number(row.count),
      firstSeen: Number(row.first_seen),
      lastSeen: Number(row.last_seen),
      sample: JSON.parse(String(row.sample)) as CallRecord,
    }));
}
