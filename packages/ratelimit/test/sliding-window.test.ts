import { describe, expect, it } from "vitest";
import { slidingWindow } from "../src/algorithms/sliding-window.ts";
import { toRate } from "../src/rates.ts";

const rate = toRate("test", { kind: "sliding window", rate: 10, period: 1000 });

describe("sliding window", () => {
  it("weights the previous window by how much of it still overlaps", () => {
    const previous = { start: 0, current: 10, previous: 0 };
    // 30% into the next window: 70% of the previous 10 still count, so 3 are left.
    expect(slidingWindow(previous, rate, 1, 1300).result).toMatchObject({ ok: true, remaining: 2 });
    expect(slidingWindow(previous, rate, 3, 1300).result).toMatchObject({ ok: true, remaining: 0 });
    expect(slidingWindow(previous, rate, 4, 1300).result).toMatchObject({
      ok: false,
      remaining: 3,
    });
  });

  it("rolls the current window into the previous one, and forgets it a window later", () => {
    const state = { start: 0, current: 6, previous: 4 };
    expect(slidingWindow(state, rate, 1, 1000).state).toEqual({
      start: 1000,
      current: 1,
      previous: 6,
    });
    expect(slidingWindow(state, rate, 1, 2000).state).toEqual({
      start: 2000,
      current: 1,
      previous: 0,
    });
  });

  it("has no boundary burst: a full window just before the edge blocks just after it", () => {
    const full = slidingWindow(undefined, rate, 10, 999).state;
    expect(slidingWindow(full, rate, 1, 1000).result).toMatchObject({ ok: false, remaining: 0 });
  });

  it("answers the exact retryAfter while the previous window decays", () => {
    // 8 last window, 1 now, 20% in: estimate 8 × 0.8 + 1 = 7.4; 3 more fit at 8 × w ≤ 6, w = 0.75.
    const state = { start: 1000, current: 1, previous: 8 };
    const refused = slidingWindow(state, rate, 3, 1200).result;
    expect(refused).toMatchObject({ ok: false, retryAfter: 50, remaining: 2 });
    expect(slidingWindow(state, rate, 3, 1249).result.ok).toBe(false);
    expect(slidingWindow(state, rate, 3, 1250).result.ok).toBe(true);
  });

  it("answers the exact retryAfter when only the next window has room", () => {
    // 9 now, 4 more cannot fit this window; next window: 9 × (1 − s) + 4 ≤ 10 → s ≥ 1/3.
    const state = { start: 1000, current: 9, previous: 0 };
    const refused = slidingWindow(state, rate, 4, 1500).result;
    expect(refused).toMatchObject({ ok: false, retryAfter: 500 + 334, resetAfter: 1500 });
    expect(slidingWindow(state, rate, 4, 1500 + 833).result.ok).toBe(false);
    expect(slidingWindow(state, rate, 4, 1500 + 834).result.ok).toBe(true);
  });

  it("is full again two windows after a window with counts", () => {
    const state = slidingWindow(undefined, rate, 1, 1250).state;
    expect(slidingWindow(undefined, rate, 1, 1250).result.resetAfter).toBe(1750);
    expect(slidingWindow(state, rate, 10, 2999).result.ok).toBe(false);
    expect(slidingWindow(state, rate, 10, 3000).result.ok).toBe(true);
  });
});
