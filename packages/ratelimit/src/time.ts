/**
 * Durations in milliseconds, the unit every `period`, `retryAfter` and
 * `resetAfter` of this package uses. Multiply them rather than writing raw
 * numbers, so a config reads as what it means.
 *
 * @example
 * ```ts
 * createRateLimiter({ store: "RATE_LIMIT", rates: { api: { kind: "sliding window", rate: 100, period: MINUTE } } });
 * ```
 */
export const SECOND = 1000;

/** One minute in milliseconds. @see {@link SECOND} @example `period: 5 * MINUTE` */
export const MINUTE = 60 * SECOND;

/** One hour in milliseconds. @see {@link SECOND} @example `period: HOUR` */
export const HOUR = 60 * MINUTE;

/** One day in milliseconds. @see {@link SECOND} @example `period: DAY` */
export const DAY = 24 * HOUR;
