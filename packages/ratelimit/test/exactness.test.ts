import { describe, expect, it } from "vitest";
import { fixedWindow } from "../src/algorithms/fixed-window.ts";
import type { Decision } from "../src/algorithms/result.ts";
import { slidingWindow } from "../src/algorithms/sliding-window.ts";
import { tokenBucket } from "../src/algorithms/token-bucket.ts";
import { type Rate, type RateKind, toRate } from "../src/rates.ts";

type Take<State> = (
  state: State | undefined,
  rate: Rate,
  count: number,
  now: number,
) => Decision<State>;

/**
 * The promises every result makes, checked by trying the neighbouring moments
 * and counts: `retryAfter` and `resetAfter` are the earliest moments (one
 * millisecond earlier fails), `remaining` is exactly what still fits.
 */
function brokenPromises<State>(
  take: Take<State>,
  state: State,
  rate: Rate,
  count: number,
  now: number,
) {
  const fits = (from: State, units: number, at: number) => take(from, rate, units, at).result.ok;
  const { result, state: after } = take(state, rate, count, now);
  const problems: string[] = [];
  if (!result.ok) {
    if (result.retryAfter < 1) problems.push("refused with retryAfter < 1");
    if (!fits(state, count, now + result.retryAfter)) problems.push("refused at retryAfter");
    if (fits(state, count, now + result.retryAfter - 1)) problems.push("allowed before retryAfter");
  } else if (result.retryAfter !== 0) problems.push("ok with retryAfter");
  const base = result.ok ? after : state;
  if (!fits(base, rate.capacity, now + result.resetAfter)) problems.push("not full at resetAfter");
  if (result.resetAfter > 0 && fits(base, rate.capacity, now + result.resetAfter - 1))
    problems.push("full before resetAfter");
  if (result.remaining > 0 && !fits(base, result.remaining, now))
    problems.push("remaining does not fit");
  if (result.remaining < rate.capacity && fits(base, result.remaining + 1, now))
    problems.push("more than remaining fits");
  return problems.map((problem) => `${problem}: ${JSON.stringify({ state, rate, count, now })}`);
}

function* range(from: number, to: number) {
  for (let n = from; n <= to; n++) yield n;
}

const rates = (kind: RateKind, capacity = (rate: number) => rate) =>
  [1, 2, 3, 5].flatMap((rate) =>
    [1, 7, 10].map((period) =>
      toRate(kind, {
        kind,
        rate,
        period,
        ...(kind === "token bucket" && { capacity: capacity(rate) }),
      }),
    ),
  );

describe("exactness over every small case", () => {
  it("fixed window", () => {
    const problems = rates("fixed window").flatMap((rate) =>
      [...range(0, rate.rate)].flatMap((count) =>
        [...range(0, 2 * rate.period)].flatMap((now) =>
          [...range(1, rate.rate)].flatMap((take) =>
            brokenPromises(fixedWindow, { start: 0, count }, rate, take, now),
          ),
        ),
      ),
    );
    expect(problems).toEqual([]);
  });

  it("sliding window", () => {
    const problems = rates("sliding window").flatMap((rate) =>
      [...range(0, rate.rate)].flatMap((previous) =>
        [...range(0, rate.rate)].flatMap((current) =>
          [...range(0, 3 * rate.period)].flatMap((now) =>
            [...range(1, rate.rate)].flatMap((take) =>
              brokenPromises(slidingWindow, { start: 0, previous, current }, rate, take, now),
            ),
          ),
        ),
      ),
    );
    expect(problems).toEqual([]);
  });

  it("token bucket", () => {
    const problems = rates("token bucket", (rate) => 2 * rate).flatMap((rate) =>
      [...range(0, rate.capacity * rate.period)].flatMap((level) =>
        [...range(0, 2 * rate.period)].flatMap((now) =>
          [...range(1, rate.capacity)].flatMap((take) =>
            brokenPromises(
              tokenBucket,
              { level, updated: 0, period: rate.period },
              rate,
              take,
              now,
            ),
          ),
        ),
      ),
    );
    expect(problems).toEqual([]);
  });
});
