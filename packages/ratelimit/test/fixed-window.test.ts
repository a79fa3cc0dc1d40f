import { describe, expect, it } from "vitest";
import { fixedWindow } from "../src/algorithms/fixed-window.ts";
import { toRate } from "../src/rates.ts";

const rate = toRate("test", { kind: "fixed window", rate: 3, period: 1000 });

describe("fixed window", () => {
  it("aligns windows to multiples of the period", () => {
    const first = fixedWindow(undefined, rate, 1, 1250);
    expect(first.state).toEqual({ start: 1000, count: 1 });
    expect(first.result).toMatchObject({ ok: true, remaining: 2, resetAfter: 750 });
  });

  it("refuses until the window turns over, then allows a full window", () => {
    const full = fixedWindow(undefined, rate, 3, 1900).state;
    expect(fixedWindow(full, rate, 1, 1999).result).toMatchObject({ ok: false, retryAfter: 1 });
    // The documented edge burst: 3 just before the boundary, 3 more right after it.
    expect(fixedWindow(full, rate, 3, 2000).result).toMatchObject({ ok: true, remaining: 0 });
  });
});
