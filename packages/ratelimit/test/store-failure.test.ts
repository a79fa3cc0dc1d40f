import { describe, expect, it } from "vitest";
import { createRateLimiter, RateLimitError, RateLimitStoreError } from "../src/index.ts";

const rates = { api: { kind: "fixed window", rate: 5, period: 1000 } } as const;

describe("store failure", () => {
  it("rejects with RateLimitStoreError when the store throws, never ok", async () => {
    const limiter = createRateLimiter({ store: "BROKEN_STORE", rates });
    const failure = await limiter.limit("api", { key: "k" }).then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
    expect("error" in failure).toBe(true);
    const { error } = failure as { error: RateLimitStoreError };
    expect(error).toBeInstanceOf(RateLimitStoreError);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ name: "RateLimitStoreError", code: "UNAVAILABLE" });
    expect(error.message).toContain("storage is on fire");
    expect(error.cause).toBeInstanceOf(Error);
  });

  it("rejects with RateLimitStoreError when the store does not answer within timeout", async () => {
    const limiter = createRateLimiter({ store: "SILENT_STORE", rates, timeoutMs: 20 });
    await expect(limiter.limit("api", { key: "k" })).rejects.toMatchObject({
      name: "RateLimitStoreError",
      code: "UNAVAILABLE",
      message: expect.stringContaining("no answer within 20 ms"),
    });
  });

  it("treats a missing binding as a configuration mistake, not an outage", async () => {
    const limiter = createRateLimiter({ store: "NO_SUCH_BINDING", rates });
    const error = await limiter.limit("api", { key: "k" }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).not.toBeInstanceOf(RateLimitStoreError);
    expect(error).toMatchObject({ code: "INVALID_CONFIG" });
  });

  it("treats a store declared without SQLite as a configuration mistake, not an outage", async () => {
    const limiter = createRateLimiter({ store: "KV_BACKED_STORE", rates });
    await expect(limiter.limit("api", { key: "k" })).rejects.toMatchObject({
      name: "RateLimitError",
      code: "INVALID_CONFIG",
      message: expect.stringContaining("new_sqlite_classes"),
    });
  });
});
