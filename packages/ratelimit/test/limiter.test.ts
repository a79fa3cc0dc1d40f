import { env } from "cloudflare:workers";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  createRateLimiter,
  type RateConfig,
  type RateLimiterOptions,
  SECOND,
} from "../src/index.ts";
import { freshKey } from "./clock.ts";

const api: RateConfig = { kind: "token bucket", rate: 10, period: SECOND, capacity: 4 };

describe("createRateLimiter configuration", () => {
  const cases: [string, Partial<RateLimiterOptions<string>>, string][] = [
    ["no store", { store: undefined }, "store must be"],
    ["no rates", { rates: {} }, "at least one rate"],
    ["an unknown kind", { rates: { a: { ...api, kind: "leaky" as "token bucket" } } }, "kind"],
    ["a fractional rate", { rates: { a: { ...api, rate: 1.5 } } }, "rate as a positive integer"],
    ["a zero period", { rates: { a: { ...api, period: 0 } } }, "period as a positive integer"],
    ["a negative capacity", { rates: { a: { ...api, capacity: -1 } } }, "capacity"],
    [
      "a capacity on a window",
      { rates: { a: { kind: "fixed window", rate: 1, period: 1, capacity: 2 } } },
      'only a "token bucket"',
    ],
    [
      "an overflowing product",
      { rates: { a: { ...api, rate: 2 ** 40, period: 2 ** 20 } } },
      "2^50",
    ],
    ["a zero timeout", { timeoutMs: 0 }, "timeoutMs"],
    ["a negative coalescing interval", { coalesceMs: -1 }, "coalesceMs"],
    ["a coalescing interval that is not a number", { coalesceMs: Number.NaN }, "coalesceMs"],
  ];
  it.each(cases)("rejects %s", (_, override, message) => {
    const options = {
      store: "RATE_LIMIT",
      rates: { api },
      ...override,
    } as RateLimiterOptions<string>;
    expect(() => createRateLimiter(options)).toThrow(
      expect.objectContaining({
        code: "INVALID_CONFIG",
        message: expect.stringContaining(message),
      }),
    );
  });

  it("accepts the namespace itself as well as its binding name", async () => {
    const limiter = createRateLimiter({ store: env.RATE_LIMIT, rates: { api } });
    expect(await limiter.limit("api", { key: freshKey() })).toMatchObject({ ok: true, limit: 4 });
  });
});

describe("limit arguments", () => {
  const limiter = createRateLimiter({ store: "RATE_LIMIT", rates: { api } });
  const cases: [string, string, { key: string; count?: number }, string, string][] = [
    [
      "an unknown rate name",
      "nope",
      { key: "k" },
      "UNKNOWN_RATE",
      'no rate named "nope"; known: "api"',
    ],
    ["a missing key", "api", {} as { key: string }, "INVALID_ARGUMENT", "string key"],
    ["a zero count", "api", { key: "k", count: 0 }, "INVALID_ARGUMENT", "positive integer"],
    ["a fractional count", "api", { key: "k", count: 0.5 }, "INVALID_ARGUMENT", "positive integer"],
    ["a count over the limit", "api", { key: "k", count: 5 }, "INVALID_ARGUMENT", "could never"],
  ];
  it.each(cases)("rejects %s", async (_, name, options, code, message) => {
    await expect(limiter.limit(name, options)).rejects.toMatchObject({
      name: "RateLimitError",
      code,
      message: expect.stringContaining(message),
    });
  });
});

describe("types", () => {
  it("fits the RateLimiter interface @svc/server declares, in method or property form", () => {
    interface ServerRateLimiter {
      limit(
        name: string,
        options: { key: string; count?: number },
      ): Promise<{
        ok: boolean;
        retryAfter: number;
        limit: number;
        remaining: number;
        resetAfter: number;
      }>;
    }
    type StrictServerRateLimiter = { limit: ServerRateLimiter["limit"] };
    const limiter = createRateLimiter({ store: "RATE_LIMIT", rates: { api } });
    expectTypeOf(limiter).toExtend<ServerRateLimiter>();
    expectTypeOf(limiter).toExtend<StrictServerRateLimiter>();
  });
});
