import { describe, expect, it } from "vitest";
import { RareWarning } from "../src/observability/rare-warning.ts";

/** A warning over a clock the test moves, printing into an array. */
function warningAt(start: number) {
  const clock = { now: start };
  const printed: [string, unknown][] = [];
  const warning = new RareWarning({
    everyMs: 60_000,
    clock: () => clock.now,
    print: (line, detail) => printed.push([line, detail]),
  });
  return { clock, printed, warning };
}

describe("RareWarning", () => {
  it("prints the first report, counts the rest of the minute, and says how many it left out", () => {
    const { clock, printed, warning } = warningAt(1_000);
    const down = new Error("no answer within 1000 ms");
    expect(warning.report("svc: the store is unavailable", down)).toBe(true);
    for (let call = 0; call < 3; call++) {
      clock.now += 10_000;
      expect(warning.report("svc: the store is unavailable", down)).toBe(false);
    }
    clock.now = 61_000;
    expect(warning.report("svc: the store is unavailable", down)).toBe(true);
    clock.now = 121_000;
    expect(warning.report("svc: the store is unavailable")).toBe(true);
    expect(printed).toEqual([
      ["svc: the store is unavailable", down],
      ["svc: the store is unavailable (3 more since the last such line)", down],
      ["svc: the store is unavailable", undefined],
    ]);
  });

  it("prints on console.error by default, looked up when it prints", () => {
    const warning = new RareWarning();
    const original = console.error;
    const lines: unknown[][] = [];
    console.error = (...args: unknown[]) => lines.push(args);
    try {
      warning.report("svc: once", "why");
      warning.report("svc: once", "why");
    } finally {
      console.error = original;
    }
    expect(lines).toEqual([["svc: once", "why"]]);
  });
});
