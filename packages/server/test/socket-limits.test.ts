import { env, exports } from "cloudflare:workers";
import { createRateLimiter, HOUR } from "@svc/ratelimit";
import { describe, expect, it } from "vitest";
import { createSocketRateLimit, createWorker, type SocketLimits } from "../src/index.ts";
import { contextsWaitedAtEnd } from "./contexts-waited-at-end.ts";
import { functions } from "./fixture/functions.ts";

/**
 * Issue 26, finding 6: one anonymous socket sent 5,000 malformed frames and
 * got 5,000 error frames, and nothing bounded sockets per address. Floods
 * from one address and from one user, over real WebSockets into the shard.
 */

type Fetcher = { fetch(request: Request): Promise<Response> };

const identityFromHeader = (request: Request) => {
  const user = request.headers.get("x-test-user");
  return user ? { userId: user } : null;
};

const context = contextsWaitedAtEnd();

function workerWith(options: {
  socketLimits?: SocketLimits;
  socketRateLimit?: ReturnType<typeof createSocketRateLimit>;
}): Fetcher {
  const worker = createWorker({
    shardDO: "SHARD",
    functions,
    resolveIdentity: identityFromHeader,
    ...options,
  });
  return { fetch: (request) => worker.fetch(request, env, context()) };
}

/** The worker of `test/worker.ts`, which passes no socket options: the defaults. */
const defaults: Fetcher = { fetch: (request) => exports.default.fetch(request) };

function upgrade(
  worker: Fetcher,
  shardKey: string,
  caller: { ip?: string; user?: string } = {},
): Promise<Response> {
  const headers = new Headers({ upgrade: "websocket", "sec-websocket-protocol": "svc.v1" });
  if (caller.ip) headers.set("cf-connecting-ip", caller.ip);
  if (caller.user) headers.set("x-test-user", caller.user);
  return worker.fetch(
    new Request(`http://svc.test/_svc/ws?shardKey=${encodeURIComponent(shardKey)}`, { headers }),
  );
}

/** Opens a socket that must be accepted; answers it with its frames and its close event. */
async function open(worker: Fetcher, shardKey: string, caller: { ip?: string; user?: string }) {
  const response = await upgrade(worker, shardKey, caller);
  expect(response.status).toBe(101);
  const ws = response.webSocket!;
  ws.accept();
  const frames: string[] = [];
  ws.addEventListener("message", (event) => {
    frames.push(String(event.data));
  });
  const closed = new Promise<CloseEvent>((resolve) => ws.addEventListener("close", resolve));
  return { ws, frames, closed };
}

async function expectRefused(response: Response, detail: RegExp): Promise<void> {
  expect(response.status).toBe(429);
  expect(response.webSocket).toBeNull();
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  expect(await response.json()).toMatchObject({
    code: "RATE_LIMITED",
    status: 429,
    detail: expect.stringMatching(detail),
  });
}

describe("frames per socket (on by default, no store)", () => {
  it("closes a socket flooding malformed frames with 4029 after its burst", async () => {
    const socket = await open(defaults, "flood-frames", { ip: "192.0.2.1" });
    for (let i = 0; i < 1000; i++) socket.ws.send("not json");
    const closed = await socket.closed;
    expect(closed.code).toBe(4029);
    expect(closed.reason).toMatch(/too many frames/);
    const errors = socket.frames.filter((frame) => frame.includes('"BAD_REQUEST"'));
    // The burst (120) answered, a few more refilled meanwhile, then nothing.
    expect(errors.length).toBeGreaterThanOrEqual(100);
    expect(errors.length).toBeLessThan(200);
  });

  it("refills at framesPerSecond: a socket that paces itself stays open", async () => {
    const slow = workerWith({ socketLimits: { framesPerSecond: 50, frameBurst: 5 } });
    const socket = await open(slow, "paced-frames", { ip: "192.0.2.2" });
    for (let i = 0; i < 15; i++) {
      socket.ws.send("not json");
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await expect.poll(() => socket.frames.length).toBe(15);
    socket.ws.send(JSON.stringify({ type: "subscribe", id: "ok", path: "messages:list" }));
    await expect.poll(() => socket.frames.some((frame) => frame.includes('"value"'))).toBe(true);
    for (let i = 0; i < 20; i++) socket.ws.send("not json");
    expect((await socket.closed).code).toBe(4029);
  });
});

describe("IPv6 callers and the whole shard (issue 53, point 4)", () => {
  it("counts the addresses of one IPv6 /64 as one address", async () => {
    const capped = workerWith({ socketLimits: { perIp: 3 } });
    const sockets = [];
    for (let i = 1; i <= 3; i++)
      sockets.push(await open(capped, "cap-v6", { ip: `2001:db8:53:1::${i}` }));
    await expectRefused(
      await upgrade(capped, "cap-v6", { ip: "2001:db8:53:1:ffff::9" }),
      /address/,
    );
    // The next /64 is another caller; a /56 prefix puts both in one.
    sockets.push(await open(capped, "cap-v6", { ip: "2001:db8:53:2::1" }));
    const wide = workerWith({ socketLimits: { perIp: 3, ipv6Prefix: 56 } });
    for (let i = 1; i <= 3; i++)
      sockets.push(await open(wide, "cap-v6-56", { ip: `2001:db8:53:${i}::1` }));
    await expectRefused(await upgrade(wide, "cap-v6-56", { ip: "2001:db8:53:ff::1" }), /address/);
    for (const socket of sockets) socket.ws.close(1000);
  });

  it("refuses the socket over the shard's total, whatever the address", async () => {
    const capped = workerWith({ socketLimits: { perShard: 4 } });
    const sockets = [];
    for (let i = 1; i <= 4; i++)
      sockets.push(await open(capped, "cap-shard", { ip: `2001:db8:54:${i}::1` }));
    await expectRefused(
      await upgrade(capped, "cap-shard", { ip: "198.51.100.7" }),
      /sockets on a shard/,
    );
    for (const socket of sockets) socket.ws.close(1000);
  });

  it("refuses an ipv6Prefix that is no number of bits when the worker is built", () => {
    for (const ipv6Prefix of [0, 129, 1.5])
      expect(() => workerWith({ socketLimits: { ipv6Prefix } })).toThrow(/ipv6Prefix/);
  });
});

describe("sockets per address and per user on a shard (on by default, no store)", () => {
  const capped = workerWith({ socketLimits: { perIp: 3, perUser: 2 } });

  it("refuses the socket over the per-address cap with 429, and admits another address", async () => {
    const sockets = [];
    for (let i = 0; i < 3; i++) sockets.push(await open(capped, "cap-ip", { ip: "192.0.2.10" }));
    await expectRefused(await upgrade(capped, "cap-ip", { ip: "192.0.2.10" }), /per address/);
    const other = await open(capped, "cap-ip", { ip: "192.0.2.11" });
    // The cap is per shard: the same address opens on another one.
    const elsewhere = await open(capped, "cap-ip-2", { ip: "192.0.2.10" });
    // A closed socket frees its place.
    sockets[0]?.ws.close(1000, "done");
    await expect
      .poll(async () => {
        const response = await upgrade(capped, "cap-ip", { ip: "192.0.2.10" });
        response.webSocket?.accept();
        response.webSocket?.close(1000);
        return response.status;
      })
      .toBe(101);
    for (const socket of [...sockets, other, elsewhere]) socket.ws.close(1000);
  });

  it("refuses the socket over the per-user cap whatever the address", async () => {
    const first = await open(capped, "cap-user", { ip: "192.0.2.20", user: "mallory" });
    const second = await open(capped, "cap-user", { ip: "192.0.2.21", user: "mallory" });
    await expectRefused(
      await upgrade(capped, "cap-user", { ip: "192.0.2.22", user: "mallory" }),
      /per user/,
    );
    const alice = await open(capped, "cap-user", { ip: "192.0.2.22", user: "alice" });
    for (const socket of [first, second, alice]) socket.ws.close(1000);
  });
});

describe("socket opens per address and per user across shards (createSocketRateLimit)", () => {
  const limiter = createRateLimiter({
    store: "RATE_LIMITER",
    rates: {
      socketsPerIp: { kind: "fixed window", rate: 2, period: HOUR },
      socketsPerUser: { kind: "fixed window", rate: 2, period: HOUR },
    },
  });
  const limited = workerWith({
    socketRateLimit: createSocketRateLimit(limiter, {
      perIp: "socketsPerIp",
      perUser: "socketsPerUser",
    }),
  });

  it("refuses an address's third socket on any shard with 429 and RateLimit headers", async () => {
    const a = await open(limited, "store-ip-1", { ip: "192.0.2.30" });
    const b = await open(limited, "store-ip-2", { ip: "192.0.2.30" });
    const refused = await upgrade(limited, "store-ip-3", { ip: "192.0.2.30" });
    expect(refused.headers.get("ratelimit-limit")).toBe("2");
    expect(refused.headers.get("ratelimit-remaining")).toBe("0");
    await expectRefused(refused, /from this address/);
    for (const socket of [a, b]) socket.ws.close(1000);
  });

  it("counts socket opens from one IPv6 /64 as one address's (issue 53, point 4)", async () => {
    const run = crypto.randomUUID().slice(0, 4);
    const a = await open(limited, "store-v6-1", { ip: `2001:db8:${run}:7::1` });
    const b = await open(limited, "store-v6-2", { ip: `2001:db8:${run}:7::2` });
    await expectRefused(
      await upgrade(limited, "store-v6-3", { ip: `2001:db8:${run}:7:ffff::3` }),
      /from this address/,
    );
    const other = await open(limited, "store-v6-3", { ip: `2001:db8:${run}:8::1` });
    for (const socket of [a, b, other]) socket.ws.close(1000);
  });

  it("refuses a user's third socket from fresh addresses", async () => {
    const a = await open(limited, "store-user-1", { ip: "192.0.2.40", user: "eve" });
    const b = await open(limited, "store-user-2", { ip: "192.0.2.41", user: "eve" });
    await expectRefused(
      await upgrade(limited, "store-user-3", { ip: "192.0.2.42", user: "eve" }),
      /for this user/,
    );
    for (const socket of [a, b]) socket.ws.close(1000);
  });
});

describe("configuration", () => {
  it.each([[{ perIp: 0 }], [{ framesPerSecond: 1.5 }], [{ frameBurst: -1 }]])(
    "refuses socketLimits %j at start",
    (socketLimits) => {
      expect(() => createWorker({ shardDO: "SHARD", functions, socketLimits })).toThrow(
        /socketLimits\.\w+ must be a positive integer/,
      );
    },
  );

  it("refuses a socket rate limit naming no rate", () => {
    const limiter = createRateLimiter({
      store: "RATE_LIMITER",
      rates: { x: { kind: "fixed window", rate: 1, period: HOUR } },
    });
    expect(() => createSocketRateLimit(limiter, {})).toThrow(/perIp, perUser or both/);
  });
});
