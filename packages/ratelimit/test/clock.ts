import { DAY } from "../src/index.ts";

/**
 * A clock tests move by hand. It starts on a day boundary, so every test
 * period (a divisor of a day) has a window starting exactly at the start.
 */
export function manualClock(start = 20_000 * DAY) {
  let now = start;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}

/** A key no other test uses, so tests share no state whatever order they run in. */
export function freshKey(label = "key"): string {
  return `${label}-${crypto.randomUUID()}`;
}
