import type { EntryPoint } from "../record.ts";

/** Counts and the duration histogram of (entry, route, code) over a window, or ever. */
export interface RollupRow {
  entry: EntryPoint;
  route: string;
  /** `""` for successful calls. */
  code: string;
  calls: number;
  durationSum: number;
  histogram: number[];
}

/** Calls and failed calls of (bucket, entry, route): one point of a sparkline. */
export interface SeriesRow {
  bucket: number;
  entry: EntryPoint;
  route: string;
  calls: number;
  errors: number;
}

/** A window's roll-ups: per-bucket counts, and per-code totals with histograms over the whole window. */
export interface WindowRollups {
  series: SeriesRow[];
  totals: RollupRow[];
}

/**
 * Totals as a partition sends them: a JSON array of `[entry, route, code,
 * calls, durationSum, …histogram]`, one per (entry, route, code).
 */
export type PackedTotals = string;

/**
 * A window's roll-ups as a partition sends them over RPC: `series` a JSON
 * array of `[entry, route, bucket, calls, errors]`, `totals` as
 * {@link PackedTotals}. SQLite builds both strings while it sums, and two
 * strings cross RPC far cheaper than the same figures as objects: with the
 * 7-day window's ~600 sparkline points per partition sent as objects
 * between workerd processes, leaving them out of the answer took a
 * partition's answer from 12 to 6–8 ms (bench app, 200,000 records).
 */
export interface PackedRollups {
  series: string;
  totals: PackedTotals;
}

/**
 * The rows of {@link PackedTotals}.
 *
 * @example
 * ```ts
 * unpackTotals('[["rpc","a:b","",3,12.5,1,2,0,0,0,0,0,0,0,0,0,0,0,0,0]]')[0]?.calls; // 3
 * ```
 */
export function unpackTotals(packed: PackedTotals): RollupRow[] {
  return (JSON.parse(packed) as [EntryPoint, string, string, number, number, ...number[]][]).map(
    ([entry, route, code, calls, durationSum, ...histogram]) => ({
      entry,
      route,
      code,
      calls,
      durationSum,
      histogram,
    }),
  );
}

/**
 * The series points and totals of {@link PackedRollups}.
 *
 * @example
 * ```ts
 * const { series, totals } = unpackRollups(await store.rollups("quarter", from));
 * ```
 */
export function unpackRollups(packed: PackedRollups): WindowRollups {
  const series = (JSON.parse(packed.series) as [EntryPoint, string, number, number, number][]).map(
    ([entry, route, bucket, calls, errors]): SeriesRow => ({ entry, route, bucket, calls, errors }),
  );
  return { series, totals: unpackTotals(packed.totals) };
}
