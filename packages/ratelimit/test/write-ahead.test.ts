import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type AlgorithmState, decide } from "../src/algorithms/decide.ts";
import { charge, covers, reserveUnits } from "../src/algorithms/reserve.ts";
import { createRateLimiter, MINUTE, type RateKind } from "../src/index.ts";
import { toRate } from "../src/rates.ts";
import { objectName } from "../src/store/protocol.ts";
import { freshKey, manualClock } from "./clock.ts";

const KINDS: RateKind[] = ["fixed window", "sliding window", "token bucket"];

/** Units a state could spend at `now`: what one-by-one calls would still admit. */
function available(
  state: AlgorithmState | undefined,
  rate: ReturnType<typeof toRate>,
  now: number,
) {
  const probe = decide(state, rate, 1, now).result;
  return probe.ok ? probe.remaining + 1 : probe.remaining;
}

describe("writing ahead (charge, covers)", () => {
  it("a covering state never lets more through than the live one, now or later", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...KINDS),
        fc.integer({ min: 100, max: 5_000 }),
        fc.array(fc.record({ wait: fc.integer({ min: 0, max: 90_000 }), units: fc.nat(40) }), {
          minLength: 1,
          maxLength: 30,
        }),
        fc.array(fc.integer({ min: 0, max: 200_000 }), { minLength: 1, maxLength: 5 }),
        (kind, limit, steps, laterWaits) => {
          const rate = toRate("api", { kind, rate: limit, period: MINUTE });
          const reserve = reserveUnits(rate);
          let now = 20_000 * 86_400_000 + 17_321;
          let live: AlgorithmState | undefined;
          let durable: AlgorithmState | undefined;
          for (const { wait, units } of steps) {
            now += wait;
            if (units > 0) {
              const decided = decide(live, rate, Math.min(units, rate.capacity), now);
              if (decided.result.ok) live = decided.next;
            }
            // The store's rule: write ahead whenever storage no longer covers the live state.
            if (live && !covers(durable, live, rate, now))
              durable = charge(live, rate, reserve, now);
            for (const later of [0, ...laterWaits]) {
              const at = now + later;
              expect(available(durable, rate, at)).toBeLessThanOrEqual(available(live, rate, at));
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("covers up to the reserved units more, and not one beyond", () => {
    for (const kind of KINDS) {
      const rate = toRate("api", { kind, rate: 10_000, period: MINUTE });
      const now = 20_000 * 86_400_000;
      const start = decide(undefined, rate, 1, now).next;
      const durable = charge(start, rate, reserveUnits(rate), now);
      const spent = (units: number) => decide(start, rate, units, now).next;
      expect(covers(durable, spent(reserveUnits(rate)), rate, now)).toBe(true);
      expect(covers(durable, spent(reserveUnits(rate) + 1), rate, now)).toBe(false);
    }
  });

  it("reserves 1 % of the limit, and nothing under 100", () => {
    const reserve = (limit: number) =>
      reserveUnits(toRate("api", { kind: "fixed window", rate: limit, period: MINUTE }));
    expect([reserve(5), reserve(99), reserve(100), reserve(12_345), reserve(10_000_000)]).toEqual([
      0, 0, 1, 123, 100_000,
    ]);
  });
});

describe("the store writing ahead", () => {
  const stored = (name: string, key: string) =>
    runInDurableObject(env.RATE_LIMIT.getByName(objectName(name, key)), (_, state) =>
      state.storage.kv.get<{ algorithm: AlgorithmState }>("state"),
    );

  it("writes once for a hot key's many calls: storage holds the first call plus 1 % of the limit", async () => {
    const clock = manualClock();
    const limiter = createRateLimiter({
      store: "RATE_LIMIT",
      rates: { hot: { kind: "fixed window", rate: 100_000, period: MINUTE } },
      clock: clock.now,
    });
    const key = freshKey();
    await limiter.limit("hot", { key });
    expect(await stored("hot", key)).toMatchObject({
      algorithm: { kind: "fixed window", state: { count: 1_001 } },
    });
    for (let call = 0; call < 50; call++) await limiter.limit("hot", { key });
    expect(await stored("hot", key)).toMatchObject({
      algorithm: { kind: "fixed window", state: { count: 1_001 } },
    });
    expect(await limiter.limit("hot", { key, count: 1_000 })).toMatchObject({
      ok: true,
      remaining: 100_000 - 1_051,
    });
    expect(await stored("hot", key)).toMatchObject({
      algorithm: { kind: "fixed window", state: { count: 2_051 } },
    });
  });

  it("writes once for a hot key of a bucket that refills faster than its calls come", async () => {
    // 100,000,000 a minute refills 1,000 units in 0.6 ms: a reserve capped at 1,000 was refilled
    // away between two store calls, so every store call wrote (the gates bench's exact gate).
    const clock = manualClock();
    const limiter = createRateLimiter({
      store: "RATE_LIMIT",
      rates: { huge: { kind: "token bucket", rate: 100_000_000, period: MINUTE } },
      clock: clock.now,
    });
    const key = freshKey();
    await limiter.limit("huge", { key });
    const first = await stored("huge", key);
    for (let call = 0; call < 20; call++) {
      clock.advance(10);
      expect(await limiter.limit("huge", { key })).toMatchObject({ ok: true });
    }
    expect(await stored("huge", key)).toEqual(first);
  });

  it("never admits more than the limit across restarts, and loses at most the reserve to each", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...KINDS),
        fc.array(fc.oneof(fc.integer({ min: 1, max: 30 }), fc.constant(0)), {
          minLength: 1,
          maxLength: 12,
        }),
        async (kind, plan) => {
          // A frozen clock: nothing refills, so every algorithm is a plain budget of `limit`.
          const clock = manualClock();
          clock.advance(17_321);
          const limit = 300;
          const limiter = createRateLimiter({
            store: "RATE_LIMIT",
            rates: { api: { kind, rate: limit, period: MINUTE } },
            clock: clock.now,
          });
          const key = freshKey();
          const stub = env.RATE_LIMIT.getByName(objectName("api", key));
          let admitted = 0;
          let restarts = 0;
          let running = false;
          // Each step: that many calls of 10 units at once, or (0) a restart of the store.
          for (const calls of plan) {
            if (calls === 0) {
              // Only a store that is running can restart.
              if (running) {
                await evictDurableObject(stub);
                restarts += 1;
                running = false;
              }
              continue;
            }
            running = true;
            const results = await Promise.all(
              Array.from({ length: calls }, () => limiter.limit("api", { key, count: 10 })),
            );
            admitted += results.filter((result) => result.ok).length * 10;
          }
          const wanted = plan.reduce((sum, calls) => sum + calls * 10, 0);
          expect(admitted).toBeLessThanOrEqual(limit);
          const lost =
            restarts * reserveUnits(toRate("api", { kind, rate: limit, period: MINUTE }));
          expect(admitted).toBeGreaterThanOrEqual(Math.min(wanted, limit - lost) - 9);
        },
      ),
      { numRuns: 20 },
    );
  });
});
