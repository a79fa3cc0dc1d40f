import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createRateLimiter, MINUTE } from "../src/index.ts";
import { objectName } from "../src/store/protocol.ts";
import { STATE_LINGER_MS } from "../src/store/rate-limit-store.ts";
import { freshKey, manualClock } from "./clock.ts";

const storedKeys = (stub: DurableObjectStub) =>
  runInDurableObject(stub, async (_, state) => ({
    entries: [...state.storage.kv.list()].length,
    alarm: await state.storage.getAlarm(),
  }));

describe("store cleanup", () => {
  it("keeps a busy key's state and re-arms its alarm", async () => {
    const limiter = createRateLimiter({
      store: "RATE_LIMIT",
      rates: { slow: { kind: "fixed window", rate: 2, period: MINUTE } },
    });
    const key = freshKey();
    const stub = env.RATE_LIMIT.getByName(objectName("slow", key));
    await limiter.limit("slow", { key });
    expect(await storedKeys(stub)).toMatchObject({ entries: 1, alarm: expect.any(Number) });

    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await storedKeys(stub)).toMatchObject({ entries: 1, alarm: expect.any(Number) });
    expect(await limiter.limit("slow", { key })).toMatchObject({ ok: true, remaining: 0 });
  });

  it("drops a key's state, alarm included, once the key is back to full and has lingered", async () => {
    const limiter = createRateLimiter({
      store: "RATE_LIMIT",
      rates: { quick: { kind: "token bucket", rate: 2, period: 10 } },
    });
    const key = freshKey();
    const stub = env.RATE_LIMIT.getByName(objectName("quick", key));
    const { resetAfter } = await limiter.limit("quick", { key, count: 2 });
    // Waiting is a lower bound here, not a race: afterwards the key is full whatever the speed.
    await scheduler.wait(Math.max(resetAfter, STATE_LINGER_MS) + 5);
    await runDurableObjectAlarm(stub);

    expect(await storedKeys(stub)).toEqual({ entries: 0, alarm: null });
    expect(await limiter.limit("quick", { key })).toMatchObject({ ok: true, remaining: 1 });
  });
});

describe("store clock", () => {
  it("never lets a clock that runs backwards refill a key", async () => {
    const clock = manualClock();
    const limiter = createRateLimiter({
      store: "RATE_LIMIT",
      rates: { bucket: { kind: "token bucket", rate: 5, period: MINUTE } },
      clock: clock.now,
    });
    const key = freshKey();
    await limiter.limit("bucket", { key, count: 5 });
    clock.advance(-10 * MINUTE);
    expect(await limiter.limit("bucket", { key })).toMatchObject({
      ok: false,
      remaining: 0,
      retryAfter: MINUTE / 5,
    });
  });

  it("starts a key afresh when its rate changes algorithm", async () => {
    const clock = manualClock();
    const key = freshKey();
    const build = (kind: "fixed window" | "token bucket") =>
      createRateLimiter({
        store: "RATE_LIMIT",
        rates: { api: { kind, rate: 3, period: MINUTE } },
        clock: clock.now,
      });
    expect((await build("fixed window").limit("api", { key, count: 3 })).remaining).toBe(0);
    expect(await build("token bucket").limit("api", { key })).toMatchObject({
      ok: true,
      remaining: 2,
    });
  });
});
