import { evictDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createRateLimiter, MINUTE, type RateConfig } from "../src/index.ts";
import { objectName } from "../src/store/protocol.ts";
import { freshKey, manualClock } from "./clock.ts";

/**
 * The behaviour every algorithm shares, run over each of them. Each row is
 * `rate` 5 per minute, so the same assertions hold; what differs between
 * algorithms (how fast they refill) is read from the results themselves.
 */
const algorithms: { name: string; config: RateConfig }[] = [
  { name: "fixed window", config: { kind: "fixed window", rate: 5, period: MINUTE } },
  { name: "sliding window", config: { kind: "sliding window", rate: 5, period: MINUTE } },
  { name: "token bucket", config: { kind: "token bucket", rate: 5, period: MINUTE } },
];

describe.each(algorithms)("contract: $name", ({ config }) => {
  const setup = () => {
    const clock = manualClock();
    const limiter = createRateLimiter({
      store: "RATE_LIMIT",
      rates: { first: config, second: config },
      clock: clock.now,
    });
    return { clock, limiter, key: freshKey() };
  };

  it("allows `limit` calls, then refuses with the earliest retryAfter", async () => {
    const { clock, limiter, key } = setup();
    for (let spent = 1; spent <= 5; spent++) {
      expect(await limiter.limit("first", { key })).toMatchObject({
        ok: true,
        retryAfter: 0,
        limit: 5,
        remaining: 5 - spent,
      });
    }
    const refused = await limiter.limit("first", { key });
    expect(refused).toMatchObject({ ok: false, limit: 5, remaining: 0 });
    expect(refused.retryAfter).toBeGreaterThan(0);
    expect(refused.retryAfter).toBeLessThanOrEqual(refused.resetAfter);

    clock.advance(refused.retryAfter - 1);
    expect((await limiter.limit("first", { key })).ok).toBe(false);
    clock.advance(1);
    expect(await limiter.limit("first", { key })).toMatchObject({ ok: true, retryAfter: 0 });
  });

  it("spends `count` units; a call that does not fit is refused and spends nothing", async () => {
    const { limiter, key } = setup();
    expect(await limiter.limit("first", { key, count: 3 })).toMatchObject({
      ok: true,
      remaining: 2,
    });
    const refused = await limiter.limit("first", { key, count: 3 });
    expect(refused).toMatchObject({ ok: false, remaining: 2 });
    expect(refused.retryAfter).toBeGreaterThan(0);
    expect(await limiter.limit("first", { key, count: 2 })).toMatchObject({
      ok: true,
      remaining: 0,
    });
  });

  it("counts each key apart", async () => {
    const { limiter, key } = setup();
    expect((await limiter.limit("first", { key, count: 5 })).ok).toBe(true);
    expect((await limiter.limit("first", { key })).ok).toBe(false);
    expect(await limiter.limit("first", { key: `${key}-other` })).toMatchObject({
      ok: true,
      remaining: 4,
    });
  });

  it("counts each rate name apart for the same key", async () => {
    const { limiter, key } = setup();
    expect((await limiter.limit("first", { key, count: 5 })).ok).toBe(true);
    expect((await limiter.limit("first", { key })).ok).toBe(false);
    expect(await limiter.limit("second", { key })).toMatchObject({ ok: true, remaining: 4 });
  });

  it("is full again exactly resetAfter after the last call", async () => {
    const { clock, limiter, key } = setup();
    const last = await limiter.limit("first", { key, count: 5 });
    expect(last.resetAfter).toBeGreaterThan(0);

    clock.advance(last.resetAfter - 1);
    expect((await limiter.limit("first", { key, count: 5 })).ok).toBe(false);
    clock.advance(1);
    expect(await limiter.limit("first", { key, count: 5 })).toMatchObject({
      ok: true,
      remaining: 0,
    });
  });

  it("lets exactly `limit` of many concurrent calls through", async () => {
    const { limiter, key } = setup();
    const results = await Promise.all(
      Array.from({ length: 40 }, () => limiter.limit("first", { key })),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(5);
    expect(results.filter((result) => !result.ok)).toHaveLength(35);
  });

  it("keeps its counts when the store object is evicted", async () => {
    const { limiter, key } = setup();
    expect((await limiter.limit("first", { key, count: 4 })).ok).toBe(true);
    await evictDurableObject(env.RATE_LIMIT.getByName(objectName("first", key)));
    expect(await limiter.limit("first", { key })).toMatchObject({ ok: true, remaining: 0 });
    expect((await limiter.limit("first", { key })).ok).toBe(false);
  });
});
