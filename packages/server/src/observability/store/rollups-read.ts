import type { CallRecord } from "../record.ts";
import type { ErrorGroupRow } from "./endpoint.ts";
import type { PackedRollups, PackedTotals } from "./packed-rollups.ts";
import { ROLLUP_UNITS, type RollupUnit } from "./rollup-units.ts";
import { BUCKET_COLUMNS } from "./schema.ts";

/** `b0, b1, …` as the columns of a packed row. */
const HISTOGRAM = BUCKET_COLUMNS.join(", ");
const HISTOGRAM_SUMS = BUCKET_COLUMNS.map((column) => `sum(${column}) AS ${column}`).join(", ");

/** The one value of a one-row, one-column query. */
function packed(cursor: SqlStorageCursor<Record<string, SqlStorageValue>>): string {
  return String(cursor.one().packed);
}

/**
 * A window's roll-ups from `from` on: calls and failures per (bucket, entry,
 * route) for sparklines, and per (entry, route, code) the window's totals
 * with their histograms. Summed in SQL from the table whose buckets fit the
 * window, so a window answers a few rows per function; the sparkline's
 * points follow the table's primary key, so SQLite sums them without a sort.
 * SQLite packs both into JSON as it sums: read through the SQL API, each
 * value costs about 0.7 µs, more than summing it (see {@link PackedRollups}).
 *
 * @example
 * ```ts
 * const { series, totals } = unpackRollups(rollupRows(sql, "quarter", Date.now() - 7 * DAY));
 * ```
 */
export function rollupRows(
  sql: SqlStorage,
  unit: RollupUnit,
  from: number,
  excludeAdmin = false,
): PackedRollups {
  const { table } = ROLLUP_UNITS[unit];
  const where = excludeAdmin ? "bucket >= ? AND entry <> 'admin'" : "bucket >= ?";
  const series = packed(
    sql.exec(
      `SELECT json_group_array(json_array(entry, route, bucket, calls, errors)) AS packed
       FROM (SELECT bucket, entry, route, sum(calls) AS calls,
               sum(CASE WHEN code = '' THEN 0 ELSE calls END) AS errors
             FROM ${table} WHERE ${where} GROUP BY bucket, entry, route)`,
      from,
    ),
  );
  const totals = packed(
    sql.exec(
      `SELECT json_group_array(json_array(entry, route, code, calls, duration_sum, ${HISTOGRAM})) AS packed
       FROM (SELECT entry, route, code, sum(calls) AS calls, sum(duration_sum) AS duration_sum, ${HISTOGRAM_SUMS}
             FROM ${table} WHERE ${where} GROUP BY entry, route, code)`,
      from,
    ),
  );
  return { series, totals };
}

/** The never-pruned totals per (entry, route, code), for Prometheus counters, packed. */
export function totalRows(sql: SqlStorage): PackedTotals {
  return packed(
    sql.exec(
      `SELECT json_group_array(json_array(entry, route, code, calls, duration_sum, ${HISTOGRAM})) AS packed
       FROM _svc_call_totals`,
    ),
  );
}

/**
 * Error groups last seen since `since`, most recent first. A group has no
 * entry column; its sample (the newest occurrence) says whether the group's
 * calls are the admin API's, since an admin route is never an app route.
 */
export function groupRows(
  sql: SqlStorage,
  since: number,
  limit: number,
  excludeAdmin = false,
): ErrorGroupRow[] {
  const admin = excludeAdmin ? "AND json_extract(sample, '$.entry') <> 'admin'" : "";
  return sql
    .exec(
      `SELECT fingerprint, code, route, shape, count, first_seen, last_seen, sample
       FROM _svc_error_groups WHERE last_seen >= ? ${admin} ORDER BY last_seen DESC LIMIT ?`,
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
