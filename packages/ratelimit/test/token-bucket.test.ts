import { describe, expect, it } from "vitest";
import { tokenBucket } from "../src/algorithms/token-bucket.ts";
import { toRate } from "../src/rates.ts";

// 10 per second with a burst of 20: one unit every 100 ms.
const rate = toRate("test", { kind: "token bucket", rate: 10, period: 1000, capacity: 20 });

describe("token bucket", () => {
  it("starts full: a burst of capacity, then refusal", () => {
    const burst = tokenBucket(undefined, rate, 20, 0);
    expect(burst.result).toMatchObject({ ok: true, limit: 20, remaining: 0, resetAfter: 2000 });
    expect(tokenBucket(burst.state, rate, 1, 0).result).toMatchObject({
      ok: false,
      retryAfter: 100,
    });
  });

  it("refills at rate / period, continuously", () => {
    const empty = tokenBucket(undefined, rate, 20, 0).state;
    expect(tokenBucket(empty, rate, 1, 250).result).toMatchObject({ ok: true, remaining: 1 });
    // 250 ms = 2.5 units: 3 do not fit yet, and the half unit counts toward the wait.
    expect(tokenBucket(empty, rate, 3, 250).result).toMatchObject({ ok: false, retryAfter: 50 });
    expect(tokenBucket(empty, rate, 3, 299).result.ok).toBe(false);
    expect(tokenBucket(empty, rate, 3, 300).result.ok).toBe(true);
  });

  it("never refills past capacity however long it idles", () => {
    const empty = tokenBucket(undefined, rate, 20, 0).state;
    const later = tokenBucket(empty, rate, 1, 1000 * 1000).result;
    expect(later).toMatchObject({ ok: true, remaining: 19, resetAfter: 100 });
  });

  it("keeps a key's level when the rate's period changes", () => {
    const spent = tokenBucket(undefined, rate, 17, 0).state;
    const perMinute = toRate("test", {
      kind: "token bucket",
      rate: 600,
      period: 60_000,
      capacity: 20,
    });
    expect(tokenBucket(spent, perMinute, 1, 0).result).toMatchObject({ ok: true, remaining: 2 });
    expect(tokenBucket(spent, perMinute, 4, 0).result).toMatchObject({
      ok: false,
      retryAfter: 100,
    });
  });

  it("defaults capacity to rate", () => {
    const plain = toRate("plain", { kind: "token bucket", rate: 3, period: 1000 });
    expect(plain.capacity).toBe(3);
    expect(tokenBucket(undefined, plain, 1, 0).result).toMatchObject({ limit: 3, remaining: 2 });
  });
});
