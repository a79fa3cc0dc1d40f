/**
 * How call records read on screen: durations, callers, statuses, and the
 * sparkline's geometry. Pure functions, unit-tested in Node.
 */
import type { Caller, CallRecord } from "../api/log-types.ts";

/** "0.4 ms", "12 ms", "1.25 s", "2 min" for a duration in milliseconds. */
export function formatDuration(ms: number | null): string {
  if (ms === null) return "—";
  if (ms < 1) return `${ms.toFixed(1)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  return `${Math.round(ms / 60_000)} min`;
}

/** "ann (user)", "anonymous", "cron:sweep (service)", "alice (operator)". */
export function callerLabel(caller: Caller): string {
  switch (caller.kind) {
    case "anonymous":
      return "anonymous";
    case "apiKey":
      return `key ${caller.id}${caller.userId === null ? "" : ` of ${caller.userId}`}`;
    default:
      return `${caller.id} (${caller.kind})`;
  }
}

/** The id a caller filter matches (`user=`), or `""` for anonymous. */
export function callerId(caller: Caller): string {
  return "id" in caller ? caller.id : "";
}

/** `ok`, `warn` or `danger`: the badge colour of a status. */
export function statusTone(status: number): "ok" | "warn" | "danger" {
  if (status >= 500) return "danger";
  if (status >= 400) return "warn";
  return "ok";
}

/** "200", "403 FORBIDDEN", "500 INTERNAL". */
export function statusLabel(record: Pick<CallRecord, "status" | "code">): string {
  return record.code === null ? String(record.status) : `${record.status} ${record.code}`;
}

/**
 * The points of an SVG polyline for a series in a `width` × `height` box:
 * x spread evenly, y from 0 (bottom) to the series' maximum (top), 1 px of
 * margin so a flat line stays visible.
 *
 * @example sparklinePoints([0, 2, 1], 100, 20) // "0,19 50,1 100,10"
 */
export function sparklinePoints(values: readonly number[], width: number, height: number): string {
  if (values.length === 0) return "";
  const max = Math.max(...values, 1);
  const step = values.length === 1 ? 0 : width / (values.length - 1);
  return values
    .map((value, i) => {
      const y = height - 1 - (value / max) * (height - 2);
      return `${Math.round(i * step * 10) / 10},${Math.round(y * 10) / 10}`;
    })
    .join(" ");
}
