import { addHistogram, emptyHistogram, quantile } from "../observability/histogram.ts";
import type { EntryPoint } from "../observability/record.ts";
import { ROLLUP_UNITS, type RollupUnit } from "../observability/store/rollup-units.ts";
import type { MetricsAnswer, MetricsWindow, SeriesPoint } from "./answers.ts";
import type { StoreReader } from "./store-reader.ts";

/**
 * The windows metrics are answered over: the roll-up unit whose buckets are
 * the sparkline's points, and how many points.
 */
export const METRICS_WINDOWS = {
  "1h": { unit: "minute", points: 60 },
  "24h": { unit: "hour", points: 24 },
  "7d": { unit: "quarter", points: 28 },
} as const satisfies Record<MetricsWindow, { unit: RollupUnit; points: number }>;

interface Accumulator {
  function: string;
  entry: EntryPoint;
  calls: number;
  errors: number;
  errorsByCode: Record<string, number>;
  durationSum: number;
  histogram: number[];
  series: SeriesPoint[];
}

function round(value: number | null): number | null {
  return value === null ? null : Math.round(value * 100) / 100;
}

/**
 * Calls, errors by code, mean and p50/p95/p99 duration, and a sparkline per
 * (function, entry point) over a window, and calls, errors and p95 of them
 * all together, from the roll-ups of every partition. Percentiles come from the merged histograms (exact to within
 * a bucket). With `excludeAdmin`, the admin API's own calls are left out.
 */
export async function metricsOf(
  reader: StoreReader,
  window: MetricsWindow,
  now: number,
  excludeAdmin = false,
): Promise<MetricsAnswer> {
  const { unit, points } = METRICS_WINDOWS[window];
  const step = ROLLUP_UNITS[unit].ms;
  const from = now - (now % step) - (points - 1) * step;
  const { series, totals } = await reader.rollups(unit, from, excludeAdmin);
  const functions = new Map<string, Accumulator>();
  const accumulatorOf = (entry: EntryPoint, route: string): Accumulator => {
    const key = `${entry}\u0000${route}`;
    let accumulator = functions.get(key);
    if (accumulator === undefined) {
      accumulator = {
        function: route,
        entry,
        calls: 0,
        errors: 0,
        errorsByCode: {},
        durationSum: 0,
        histogram: emptyHistogram(),
        series: Array.from({ length: points }, (_, i) => ({
          time: new Date(from + i * step).toISOString(),
          calls: 0,
          errors: 0,
        })),
      };
      functions.set(key, accumulator);
    }
    return accumulator;
  };
  const overall = { calls: 0, errors: 0, histogram: emptyHistogram() };
  for (const row of totals) {
    overall.calls += row.calls;
    if (row.code !== "") overall.errors += row.calls;
    addHistogram(overall.histogram, row.histogram);
    const accumulator = accumulatorOf(row.entry, row.route);
    accumulator.calls += row.calls;
    accumulator.durationSum += row.durationSum;
    addHistogram(accumulator.histogram, row.histogram);
    if (row.code !== "") {
      accumulator.errors += row.calls;
      accumulator.errorsByCode[row.code] = (accumulator.errorsByCode[row.code] ?? 0) + row.calls;
    }
  }
  for (const row of series) {
    const point = accumulatorOf(row.entry, row.route).series[
      Math.floor((row.bucket - from) / step)
    ];
    if (point === undefined) continue;
    point.calls += row.calls;
    point.errors += row.errors;
  }
  return {
    window,
    from: new Date(from).toISOString(),
    to: new Date(now).toISOString(),
    stepSeconds: step / 1000,
    functions: [...functions.values()]
      .map((f) => ({
        function: f.function,
        entry: f.entry,
        calls: f.calls,
        errors: f.errors,
        errorsByCode: f.errorsByCode,
        meanMs: round(f.calls === 0 ? null : f.durationSum / f.calls),
        p50Ms: round(quantile(f.histogram, 0.5)),
        p95Ms: round(quantile(f.histogram, 0.95)),
        p99Ms: round(quantile(f.histogram, 0.99)),
        series: f.series,
      }))
      .sort((a, b) => b.calls - a.calls || a.function.localeCompare(b.function)),
    overall: {
      calls: overall.calls,
      errors: overall.errors,
      p95Ms: round(quantile(overall.histogram, 0.95)),
    },
  };
}
