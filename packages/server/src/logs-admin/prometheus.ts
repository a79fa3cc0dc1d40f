import { BUCKETS, DURATION_BOUNDS_MS } from "../observability/histogram.ts";
import type { RollupRow, StoreStats } from "../observability/store/endpoint.ts";

/** The media type of Prometheus's text exposition format 0.0.4. */
export const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

function label(value: string): string {
  return value.replaceAll("\\", "\\\\").replaceAll('"', '\\"').replaceAll("\n", "\\n");
}

function labels(entries: Record<string, string>): string {
  return `{${Object.entries(entries)
    .map(([name, value]) => `${name}="${label(value)}"`)
    .join(",")}}`;
}

function sumByKey(
  rows: readonly RollupRow[],
  keyOf: (row: RollupRow) => string,
): Map<string, RollupRow> {
  const sums = new Map<string, RollupRow>();
  for (const row of rows) {
    const key = keyOf(row);
    const known = sums.get(key);
    if (known === undefined) {
      sums.set(key, { ...row, histogram: [...row.histogram] });
      continue;
    }
    known.calls += row.calls;
    known.durationSum += row.durationSum;
    for (let i = 0; i < BUCKETS; i++)
      known.histogram[i] = (known.histogram[i] ?? 0) + (row.histogram[i] ?? 0);
  }
  return sums;
}

/** A counter of calls by (entry, route, code) and a duration histogram by (entry, route). */
function callFamilies(
  rows: readonly RollupRow[],
  name: { calls: string; duration: string },
  whose: string,
): string[] {
  const lines: string[] = [
    `# HELP ${name.calls} ${whose} calls by function, entry point and outcome (OK or the error code).`,
    `# TYPE ${name.calls} counter`,
  ];
  const byCode = sumByKey(rows, (row) => `${row.entry}\u0000${row.route}\u0000${row.code}`);
  for (const row of byCode.values()) {
    const codeLabel = row.code === "" ? "OK" : row.code;
    lines.push(
      `${name.calls}${labels({ function: row.route, entry: row.entry, code: codeLabel })} ${row.calls}`,
    );
  }
  lines.push(
    `# HELP ${name.duration} Wall time of ${whose.toLowerCase()} calls by function and entry point.`,
    `# TYPE ${name.duration} histogram`,
  );
  const byFunction = sumByKey(rows, (row) => `${row.entry}\u0000${row.route}`);
  for (const row of byFunction.values()) {
    const base = { function: row.route, entry: row.entry };
    let cumulative = 0;
    for (let i = 0; i < BUCKETS; i++) {
      cumulative += row.histogram[i] ?? 0;
      const bound = DURATION_BOUNDS_MS[i];
      const le = bound === undefined ? "+Inf" : String(bound / 1000);
      lines.push(`${name.duration}_bucket${labels({ ...base, le })} ${cumulative}`);
    }
    lines.push(`${name.duration}_sum${labels(base)} ${row.durationSum / 1000}`);
    lines.push(`${name.duration}_count${labels(base)} ${row.calls}`);
  }
  return lines;
}

/**
 * The store's never-reset totals in Prometheus's text format: a counter of
 * calls per function, entry point and code (`OK` for successes), a duration
 * histogram per function and entry point (buckets in seconds), and each
 * partition's record count and bytes. The admin API's own calls (the
 * dashboard's reads among them) are families of their own, so a sum over
 * `svc_calls_total` is the app's traffic.
 *
 * @example
 * ```text
 * svc_calls_total{function="messages:list",entry="rest",code="OK"} 12
 * svc_admin_calls_total{function="GET /_svc/admin/auth/*",entry="admin",code="OK"} 3
 * ```
 */
export function prometheusText(totals: readonly RollupRow[], stats: readonly StoreStats[]): string {
  const lines: string[] = [
    ...callFamilies(
      totals.filter((row) => row.entry !== "admin"),
      { calls: "svc_calls_total", duration: "svc_call_duration_seconds" },
      "App",
    ),
    ...callFamilies(
      totals.filter((row) => row.entry === "admin"),
      { calls: "svc_admin_calls_total", duration: "svc_admin_call_duration_seconds" },
      "Admin API",
    ),
  ];
  lines.push(
    "# HELP svc_log_store_records Call records held by each log store partition.",
    "# TYPE svc_log_store_records gauge",
    ...stats.map(
      (s, partition) =>
        `svc_log_store_records${labels({ partition: String(partition) })} ${s.records}`,
    ),
    "# HELP svc_log_store_bytes Bytes of call records held by each log store partition.",
    "# TYPE svc_log_store_bytes gauge",
    ...stats.map(
      (s, partition) => `svc_log_store_bytes${labels({ partition: String(partition) })} ${s.bytes}`,
    ),
  );
  return `${lines.join("\n")}\n`;
}
