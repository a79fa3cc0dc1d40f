import { describe, expect, it } from "vitest";
import { dayLabel, roundScale, summarizeSignUps } from "../../ui/lib/sign-up-summary.ts";

describe("summarizeSignUps", () => {
  it("sums the days and names the busiest, the latest of equals", () => {
    const summary = summarizeSignUps([
      { day: "2026-11-23", count: 4 },
      { day: "2026-11-24", count: 9 },
      { day: "2026-11-25", count: 9 },
      { day: "2026-11-26", count: 1 },
    ]);
    expect(summary).toEqual({ total: 23, peak: { day: "2026-11-25", count: 9 }, scaleMax: 10 });
  });

  it("has no busiest day when nobody signed up", () => {
    expect(summarizeSignUps([{ day: "2026-11-25", count: 0 }])).toEqual({
      total: 0,
      peak: null,
      scaleMax: 1,
    });
    expect(summarizeSignUps([])).toEqual({ total: 0, peak: null, scaleMax: 1 });
  });
});

describe("roundScale", () => {
  it.each([
    [0, 1],
    [1, 1],
    [2, 2],
    [3, 5],
    [10, 10],
    [11, 20],
    [47, 50],
    [51, 100],
    [1_234, 2_000],
  ])("%i → %i", (value, expected) => {
    expect(roundScale(value)).toBe(expected);
  });
});

describe("dayLabel", () => {
  it("reads a UTC day without shifting it", () => {
    expect(dayLabel("2026-11-25", "en-GB")).toBe("25 Nov");
    expect(dayLabel("2026-01-01", "en-GB")).toBe("1 Jan");
  });
});
