/**
 * Upper bounds (ms) of the duration histogram every roll-up keeps: 15
 * buckets, the last one open-ended. Coarse enough to store as 15 integers
 * per (minute, function, code), fine enough for p50/p95/p99 within a bucket.
 */
export const DURATION_BOUNDS_MS: readonly number[] = [
  1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000,
];

/** Buckets per histogram: one per bound plus the open-ended last. */
export const BUCKETS = DURATION_BOUNDS_MS.length + 1;

/** The bucket a duration falls in. */
export function bucketOf(durationMs: number): number {
  for (let i = 0; i < DURATION_BOUNDS_MS.length; i++) {
    if (durationMs <= DURATION_BOUNDS_MS[i]!) return i;
  }
  return DURATION_BOUNDS_MS.length;
}

/** An empty histogram. */
export function emptyHistogram(): number[] {
  return new Array<number>(BUCKETS).fill(0);
}

/** Adds `from` into `into`, bucket by bucket. */
export function addHistogram(into: number[], from: readonly number[]): void {
  for (let i = 0; i < BUCKETS; i++) into[i] = (into[i] ?? 0) + (from[i] ?? 0);
}

/**
 * The `q`-quantile (0–1) of a histogram in ms, interpolated linearly inside
 * its bucket (the open-ended bucket answers its lower bound); `null` when
 * the histogram is empty.
 *
 * @example quantile([0, 10, 0, ...], 0.5) // 1.5: half-way through the (1, 2] bucket
 */
export function quantile(counts: readonly number[], q: number): number | null {
  const total = counts.reduce((sum, count) => sum + count, 0);
  if (total === 0) return null;
  const rank = q * total;
  let seen = 0;
  for (let i = 0; i < BUCKETS; i++) {
    const count = counts[i] ?? 0;
    if (count > 0 && seen + count >= rank) {
      const lower = i === 0 ? 0 : DURATION_BOUNDS_MS[i - 1]!;
      const upper = DURATION_BOUNDS_MS[i];
      if (upper === undefined) return lower;
      return lower + ((upper - lower) * Math.max(0, rank - seen)) / count;
    }
    seen += count;
  }
  return DURATION_BOUNDS_MS.at(-1)!;
}
