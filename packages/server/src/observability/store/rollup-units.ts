const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * The roll-up tables: counts per (bucket, entry, route, code) at three
 * resolutions, each kept as long as the windows it serves need: minutes for
 * the 1 h window, hours for 24 h, quarter days (6 h) for 7 d. A window reads
 * at most a few dozen buckets per function, whatever the traffic.
 */
export const ROLLUP_UNITS = {
  minute: { table: "_svc_call_minutes", ms: MINUTE, keptMs: 3 * HOUR },
  hour: { table: "_svc_call_hours", ms: HOUR, keptMs: 2 * DAY },
  quarter: { table: "_svc_call_quarters", ms: 6 * HOUR, keptMs: 31 * DAY },
} as const;

/** One of {@link ROLLUP_UNITS}. */
export type RollupUnit = keyof typeof ROLLUP_UNITS;
