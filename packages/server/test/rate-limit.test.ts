import { env } from "cloudflare:workers";
import { createRateLimiter, HOUR } from "@svc/ratelimit";
import { describe, expect, it, vi } from "vitest";
import { createRestRateLimit, createWorker, type RestRateLimitOptions } from "../src/index.ts";
import { contextsWaitedAtEnd } from "./contexts-waited-at-end.ts";
import { functions } from "./fixture/functions.ts";

const rates = {
  rest: { kind: "fixed window", rate: 3, period: HOUR },
  rpc: { kind: "fixed window", rate: 2, period: HOUR },
  leased: { kind: "fixed window", rate: 3, period: HOUR, lease: { units: 2, ttlMs: HOUR } },
} as const;
const context = contextsWaitedAtEnd();

/**
 * How long these tests let the limiter's store answer. The default (1 s) was
 * once too short for the file's first call on a loaded 2-core CI machine: a
 * cold store object answered later, the limiter failed open (as it should)
 * and the call had no RateLimit headers. These tests are about decisions and
 * headers, not the deadline; none of them waits for it to pass.
 */
const STORE_TIMEOUT_MS = 10_000;

/** A worker over the test shards whose REST surface is limited to 3 calls per hour per key. */
function limitedWorker(options: Partial<RestRateLimitOptions> = {}, store = "RATE_LIMITER") {
  const limiter = createRateLimiter({ store, rates, timeoutMs: STORE_TIMEOUT_MS });
  return createWorker({
    shardDO: "SHARD",
    functions,
    restRateLimit: createRestRateLimit(limiter, { name: "rest", ...options }),
  });
}

function request(worker: ReturnType<typeof createWorker>, path: string, init: RequestInit = {}) {
  return worker.fetch(new Request(`http://svc.test${path}`, init), env, context());
}

const fromIp = (ip: string) => ({ headers: { "cf-connecting-ip": ip } });

describe("REST rate limit", () => {
  it("allows N calls with RateLimit headers, then answers 429 with Retry-After", async () => {
    const worker = limitedWorker();
    for (let i = 0; i < 3; i++) {
      const response = await request(worker, "/_svc/rest/rest/inspect", fromIp("192.0.2.1"));
      expect(response.status).toBe(200);
      expect(response.headers.get("ratelimit-limit")).toBe("3");
      expect(response.headers.get("ratelimit-remaining")).toBe(String(2 - i));
    }
    const limited = await request(worker, "/_svc/rest/rest/inspect", fromIp("192.0.2.1"));
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 3600).toBe(true);
    expect(limited.headers.get("ratelimit-remaining")).toBe("0");
    expect(await limited.json()).toMatchObject({ code: "RATE_LIMITED", status: 429 });
    expect((await request(worker, "/_svc/rest/rest/inspect", fromIp("192.0.2.2"))).status).toBe(
      200,
    );
  });

  it("answers calls spent from a lease with the same headers, and 429 at the limit", async () => {
    const worker = limitedWorker({ name: "leased" });
    const headersOf = (response: Response) =>
      ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"].map((name) =>
        response.headers.get(name),
      );
    // 1: the store leases 2 units (1 left there); 2: spent from the lease, no store call;
    // 3: the store's last unit; 4: nothing left anywhere.
    const leasing = await request(worker, "/_svc/rest/rest/inspect", fromIp("192.0.2.5"));
    expect(leasing.status).toBe(200);
    expect(headersOf(leasing).slice(0, 2)).toEqual(["3", "1"]);
    const fromLease = await request(worker, "/_svc/rest/rest/inspect", fromIp("192.0.2.5"));
    expect(fromLease.status).toBe(200);
    expect(headersOf(fromLease)).toEqual(["3", "0", "0"]);
    const last = await request(worker, "/_svc/rest/rest/inspect", fromIp("192.0.2.5"));
    expect(last.status).toBe(200);
    expect(headersOf(last).slice(0, 2)).toEqual(["3", "0"]);
    const limited = await request(worker, "/_svc/rest/rest/inspect", fromIp("192.0.2.5"));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await limited.json()).toMatchObject({ code: "RATE_LIMITED", status: 429 });
  });

  it("keys IPv6 callers by their /64, or the prefix configured (issue 53, point 4)", async () => {
    const worker = limitedWorker();
    const statuses = [];
    for (let i = 1; i <= 4; i++) {
      const from = fromIp(`2001:db8:4:1:${i}::${i}`);
      statuses.push((await request(worker, "/_svc/rest/rest/inspect", from)).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    // Written another way, the same network; the next /64 has its own bucket.
    const compressed = fromIp("2001:0DB8:0004:0001:0:0:0:abcd");
    expect((await request(worker, "/_svc/rest/rest/inspect", compressed)).status).toBe(429);
    const next = fromIp("2001:db8:4:2::1");
    expect((await request(worker, "/_svc/rest/rest/inspect", next)).status).toBe(200);
    const wide = limitedWorker({ ipv6Prefix: 48 });
    for (let i = 1; i <= 3; i++)
      await request(wide, "/_svc/rest/rest/inspect", fromIp(`2001:db8:5:${i}::1`));
    const sameSlash48 = fromIp("2001:db8:5:ffff::1");
    expect((await request(wide, "/_svc/rest/rest/inspect", sameSlash48)).status).toBe(429);
  });

  it("never lets more than N concurrent calls through", async () => {
    const worker = limitedWorker();
    const statuses = await Promise.all(
      Array.from({ length: 25 }, () =>
        request(worker, "/_svc/rest/rest/inspect", fromIp("192.0.2.10")).then((r) => r.status),
      ),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(22);
  });

  const malformedPost = (worker: ReturnType<typeof createWorker>, ip: string) =>
    request(worker, "/_svc/rest/rest/doubled", {
      method: "POST",
      headers: { "cf-connecting-ip": ip, "content-type": "application/json" },
      body: "{not json",
    });

  it("decided in the worker, runs before the body is read: a limited malformed POST is 429", async () => {
    const worker = limitedWorker({ decideIn: "worker" });
    for (let i = 0; i < 3; i++)
      await request(worker, "/_svc/rest/rest/inspect", fromIp("192.0.2.20"));
    expect((await malformedPost(worker, "192.0.2.20")).status).toBe(429);
  });

  it("counts unknown paths too; only successes and 429s carry RateLimit headers", async () => {
    const worker = limitedWorker();
    const unknown = await request(worker, "/_svc/rest/nope/nothing", fromIp("192.0.2.90"));
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("ratelimit-remaining")).toBeNull();
    const invalid = await request(worker, "/_svc/rest/rest/doubled", {
      method: "POST",
      headers: { "cf-connecting-ip": "192.0.2.90", "content-type": "application/json" },
      body: JSON.stringify({ n: "two" }),
    });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get("ratelimit-remaining")).toBeNull();
    const last = await request(worker, "/_svc/rest/rest/inspect", fromIp("192.0.2.90"));
    expect(last.headers.get("ratelimit-remaining")).toBe("0");
  });

  it("never limits RPC", async () => {
    const worker = limitedWorker();
    for (let i = 0; i < 8; i++) {
      const response = await request(worker, "/_svc/rpc", {
        method: "POST",
        headers: { "cf-connecting-ip": "192.0.2.30", "content-type": "application/json" },
        body: JSON.stringify({ path: "rest:inspect", args: {} }),
      });
      expect(response.status).toBe(200);
    }
  });

  it("shares one bucket between callers without cf-connecting-ip, ignoring x-forwarded-for", async () => {
    const worker = limitedWorker();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const forged = { headers: { "x-forwarded-for": `198.51.100.${i}` } };
      statuses.push((await request(worker, "/_svc/rest/rest/inspect", forged)).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it("keys on an API-key header when told to", async () => {
    const worker = limitedWorker({ key: (req) => `api:${req.headers.get("x-api-key") ?? "none"}` });
    const withKey = (key: string) => ({
      headers: { "x-api-key": key, "cf-connecting-ip": "192.0.2.40" },
    });
    for (let i = 0; i < 3; i++)
      expect((await request(worker, "/_svc/rest/rest/inspect", withKey("alpha"))).status).toBe(200);
    expect((await request(worker, "/_svc/rest/rest/inspect", withKey("alpha"))).status).toBe(429);
    expect((await request(worker, "/_svc/rest/rest/inspect", withKey("beta"))).status).toBe(200);
  });

  it("keys on the function path when told to", async () => {
    const worker = limitedWorker({
      key: (req, path) => `${req.headers.get("cf-connecting-ip")}:${path}`,
    });
    for (let i = 0; i < 3; i++)
      await request(worker, "/_svc/rest/rest/inspect", fromIp("192.0.2.50"));
    expect((await request(worker, "/_svc/rest/rest/inspect", fromIp("192.0.2.50"))).status).toBe(
      429,
    );
    expect(
      (await request(worker, "/_svc/rest/rest/noArgs", { method: "POST", ...fromIp("192.0.2.50") }))
        .status,
    ).toBe(200);
  });

  it("waits for a key function's promise, and fails loudly (500), never open, when it throws", async () => {
    const later = limitedWorker({
      key: async (req) => `later:${req.headers.get("cf-connecting-ip")}`,
    });
    for (let i = 0; i < 3; i++)
      expect((await request(later, "/_svc/rest/rest/inspect", fromIp("192.0.2.55"))).status).toBe(
        200,
      );
    expect((await request(later, "/_svc/rest/rest/inspect", fromIp("192.0.2.55"))).status).toBe(
      429,
    );
    const throwing = limitedWorker({
      key: () => {
        throw new Error("no key for this request");
      },
    });
    const failed = await request(throwing, "/_svc/rest/rest/inspect", fromIp("192.0.2.56"));
    expect(failed.status).toBe(500);
    expect(failed.headers.get("ratelimit-limit")).toBeNull();
    expect(await failed.text()).not.toContain("no key for this request");
  });

  it("admits calls when the store is down (default onStoreError: allow) and refuses with 503 under deny", async () => {
    const printed: string[] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((line: unknown) => {
      printed.push(String(line));
    });
    const allow = limitedWorker({}, "BROKEN_LIMITER");
    const deny = limitedWorker({ onStoreError: "deny" }, "BROKEN_LIMITER");
    const admitted: number[] = [];
    const refused: Response[] = [];
    try {
      for (let call = 0; call < 5; call++) {
        admitted.push(
          (await request(allow, "/_svc/rest/rest/inspect", fromIp("192.0.2.60"))).status,
        );
        refused.push(await request(deny, "/_svc/rest/rest/inspect", fromIp("192.0.2.60")));
      }
    } finally {
      spy.mockRestore();
    }
    expect(admitted).toEqual([200, 200, 200, 200, 200]);
    expect(refused.map((answer) => answer.status)).toEqual([503, 503, 503, 503, 503]);
    expect(await refused[0]!.json()).toMatchObject({ code: "UNAVAILABLE" });
    // One line per kind of outage, not one per call: a stack per call is what stalled `wrangler dev`.
    expect(printed.filter((line) => line.includes("store is unavailable"))).toEqual([
      "svc: the rate limiter's store is unavailable; calls are admitted",
      "svc: the rate limiter's store is unavailable; calls are refused (503)",
    ]);
  });

  it("fails loudly (500), never open, when the limiter is misconfigured", async () => {
    const misconfigured = limitedWorker({}, "NO_SUCH_BINDING");
    expect(
      (await request(misconfigured, "/_svc/rest/rest/inspect", fromIp("192.0.2.70"))).status,
    ).toBe(500);
  });
});

describe("RPC rate limit (opt-in rpcRateLimit, issue 26)", () => {
  const rpcLimited = (key?: RestRateLimitOptions["key"]) =>
    createWorker({
      shardDO: "SHARD",
      functions,
      restRateLimit: createRestRateLimit(
        createRateLimiter({ store: "RATE_LIMITER", rates, timeoutMs: STORE_TIMEOUT_MS }),
        {
          name: "rest",
        },
      ),
      rpcRateLimit: createRestRateLimit(
        createRateLimiter({ store: "RATE_LIMITER", rates, timeoutMs: STORE_TIMEOUT_MS }),
        {
          name: "rpc",
          ...(key ? { key } : {}),
        },
      ),
    });
  const rpc = (worker: ReturnType<typeof createWorker>, ip: string, path: string, body?: string) =>
    request(worker, "/_svc/rpc", {
      method: "POST",
      headers: { "cf-connecting-ip": ip, "content-type": "application/json" },
      body: body ?? JSON.stringify({ path, args: {} }),
    });

  it("limits RPC on its own rate, with RateLimit headers on answers, then 429", async () => {
    const worker = rpcLimited();
    const first = await rpc(worker, "192.0.2.80", "rest:inspect");
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-limit")).toBe("2");
    expect(first.headers.get("ratelimit-remaining")).toBe("1");
    // An unknown path is counted too; its 404 is the usual one, without RateLimit headers.
    const unknown = await rpc(worker, "192.0.2.80", "nope:nothing");
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("ratelimit-remaining")).toBeNull();
    const limited = await rpc(worker, "192.0.2.80", "rest:inspect");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await limited.json()).toMatchObject({ code: "RATE_LIMITED", status: 429 });
    // Its own rate: REST from the same address still has its 3.
    expect((await request(worker, "/_svc/rest/rest/inspect", fromIp("192.0.2.80"))).status).toBe(
      200,
    );
    expect((await rpc(worker, "192.0.2.81", "rest:inspect")).status).toBe(200);
  });

  it("runs before identity and dispatch: a limited stream is refused before it opens", async () => {
    const worker = rpcLimited();
    const ticks = JSON.stringify({ path: "messages:ticks", args: { count: 2 } });
    const stream = await rpc(worker, "192.0.2.82", "messages:ticks", ticks);
    expect(stream.headers.get("content-type")).toBe("application/x-ndjson");
    expect(stream.headers.get("ratelimit-remaining")).toBe("1");
    await stream.text();
    await rpc(worker, "192.0.2.82", "rest:inspect");
    expect((await rpc(worker, "192.0.2.82", "messages:ticks", ticks)).status).toBe(429);
  });

  it("gives the key function the procedure path", async () => {
    const worker = rpcLimited((req, path) => `${req.headers.get("cf-connecting-ip")}:${path}`);
    for (let i = 0; i < 2; i++) await rpc(worker, "192.0.2.83", "rest:inspect");
    expect((await rpc(worker, "192.0.2.83", "rest:inspect")).status).toBe(429);
    expect((await rpc(worker, "192.0.2.83", "notes:all")).status).toBe(200);
  });

  it("refuses a gate that is not one at start", () => {
    expect(() => createWorker({ shardDO: "SHARD", functions, rpcRateLimit: {} as never })).toThrow(
      /rpcRateLimit must be a gate/,
    );
  });
});
