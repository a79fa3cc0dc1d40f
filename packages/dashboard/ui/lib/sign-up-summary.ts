/** One UTC day of the overview's sign-ups series, as `GET overview` answers it. */
export interface DayCount {
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  count: number;
}

/** What the sign-ups chart says in words: the sum, the busiest day, and the scale's top. */
export interface SignUpSummary {
  total: number;
  /** The busiest day (the latest of equals), or `null` when no day had a sign-up. */
  peak: DayCount | null;
  /** A round number at or above the busiest day's count: the chart's top gridline. */
  scaleMax: number;
}

/**
 * Sums a sign-ups series and finds its busiest day and a round scale, so the
 * chart's bars, its gridline labels and its spoken summary all agree.
 *
 * @example
 * ```ts
 * summarizeSignUps([{ day: "2026-11-24", count: 3 }, { day: "2026-11-25", count: 7 }]);
 * // { total: 10, peak: { day: "2026-11-25", count: 7 }, scaleMax: 10 }
 * ```
 */
export function summarizeSignUps(days: readonly DayCount[]): SignUpSummary {
  let total = 0;
  let peak: DayCount | null = null;
  for (const day of days) {
    total += day.count;
    if (day.count > 0 && (peak === null || day.count >= peak.count)) peak = day;
  }
  return { total, peak, scaleMax: roundScale(peak?.count ?? 0) };
}

/**
 * The smallest of 1, 2, 5 × 10ⁿ at or above `value` (at least 1), so a
 * gridline reads "50" rather than "47".
 *
 * @example
 * ```ts
 * roundScale(47); // 50
 * roundScale(0); // 1
 * ```
 */
export function roundScale(value: number): number {
  if (value <= 1) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) {
    if (step * magnitude >= value) return step * magnitude;
  }
  return 10 * magnitude;
}

/**
 * A UTC day (`YYYY-MM-DD`) as people read it ("25 Nov"), never shifted by
 * the browser's time zone.
 *
 * @example
 * ```ts
 * dayLabel("2026-11-25", "en-GB"); // "25 Nov"
 * ```
 */
export function dayLabel(day: string, locale?: string): string {
  return new Intl.DateTimeFormat(locale, {
    day: "numeric",
    month: "short",
    timeZone: "UTC",
  }).format(new Date(`${day}T00:00:00Z`));
}
