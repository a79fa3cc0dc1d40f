import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createRateLimiter, MINUTE, type RateLimitStore } from "../src/index.ts";
import { freshKey } from "./clock.ts";

/** The real store namespace, counting how many times the limiter reaches for an object. */
function countingStore() {
  const real = env.RATE_LIMIT as DurableObjectNamespace<RateLimitStore>;
  const counter = { calls: 0 };
  const namespace = {
    getByName(name: string) {
      counter.calls++;
      return real.getByName(name);
    },
  } as unknown as DurableObjectNamespace<RateLimitStore>;
  return { namespace, counter };
}

describe("exact limiting batches a busy key's calls", () => {
  it("decides 200 concurrent calls exactly (100 admitted) in far fewer store round trips", async () => {
    const { namespace, counter } = countingStore();
    const limiter = createRateLimiter({
      store: namespace,
      rates: { api: { kind: "fixed window", rate: 100, period: MINUTE } },
    });
    const key = freshKey();
    const results = await Promise.all(
      Array.from({ length: 200 }, () => limiter.limit("api", { key })),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(100);
    const refused = results.filter((result) => !result.ok);
    expect(refused).toHaveLength(100);
    expect(refused.every((result) => result.retryAfter > 0 && result.remaining === 0)).toBe(true);
    expect(counter.calls).toBeLessThan(10);
  });

  it("sends an idle key's call at once, alone", async () => {
    const { namespace, counter } = countingStore();
    const limiter = createRateLimiter({
      store: namespace,
      rates: { api: { kind: "token bucket", rate: 10, period: MINUTE } },
    });
    const key = freshKey();
    for (let i = 0; i < 3; i++) expect((await limiter.limit("api", { key })).ok).toBe(true);
    expect(counter.calls).toBe(3);
  });
});
