import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { createRateLimiter, HOUR } from "@svc/ratelimit";
import { describe, expect, it } from "vitest";
import { createRestRateLimit, createWorker, type RestRateLimitOptions } from "../src/index.ts";
import { RefusalCache } from "../src/limits/refusals.ts";
import { deferToShard, type ShardGated } from "../src/limits/shard-gate.ts";
import type { ShardCall, ShardEndpoint } from "../src/shard/call.ts";
import { invokeGatedJson } from "../src/worker/invoke.ts";
import { contextsWaitedAtEnd } from "./contexts-waited-at-end.ts";
import { functions } from "./fixture/functions.ts";

/**
 * The REST gate decided in the call's shard (`decideIn: "shard"`, the
 * default): what runs, what is refused where, and what the worker does when
 * its shard cannot decide the gate. rate-limit.test.ts covers the headers,
 * keys and outages, which are the same wherever the gate is decided.
 */

const rates = { inShard: { kind: "fixed window", rate: 3, period: HOUR } } as const;
const context = contextsWaitedAtEnd();
/** See rate-limit.test.ts: a cold store object on a loaded CI machine answered after 1 s. */
const STORE_TIMEOUT_MS = 10_000;

const limiterOf = () =>
  createRateLimiter({ store: "RATE_LIMITER", rates, timeoutMs: STORE_TIMEOUT_MS });

/** Identities resolved so far: how a test sees that a call was refused before its identity. */
let identitiesResolved = 0;

/** A worker whose REST calls are limited to 3 an hour per address, every caller named `writer`. */
function limitedWorker(
  options: Partial<RestRateLimitOptions> & { shardAccess?: () => boolean } = {},
) {
  const { shardAccess, ...gateOptions } = options;
  return createWorker({
    shardDO: "SHARD",
    functions,
    resolveIdentity: () => {
      identitiesResolved++;
      return { userId: "writer" };
    },
    restRateLimit: createRestRateLimit(limiterOf(), { name: "inShard", ...gateOptions }),
    ...(shardAccess === undefined ? {} : { shardAccess }),
  });
}

const fromIp = (ip: string, init: RequestInit = {}) => ({
  ...init,
  headers: { "cf-connecting-ip": ip, "content-type": "application/json", ...init.headers },
});

function request(worker: ReturnType<typeof createWorker>, path: string, init: RequestInit) {
  return worker.fetch(new Request(`http://svc.test${path}`, init), env, context());
}

/** Writes an article in shard `shardKey` over REST: one run of the mutation per admitted call. */
const write = (worker: ReturnType<typeof createWorker>, shardKey: string, ip: string) =>
  request(
    worker,
    `/_svc/rest/articles/write?shardKey=${shardKey}`,
    fromIp(ip, { method: "POST", body: JSON.stringify({ body: "hello" }) }),
  );

/** The articles shard `shardKey` holds: how a test sees which calls ran. */
const articlesIn = (shardKey: string) =>
  runInDurableObject(
    env.SHARD.getByName(shardKey),
    (_instance, state) =>
      state.storage.sql.exec<{ n: number }>('select count(*) as n from "t_articles"').one().n,
  );

const freshShard = () => `gate-${crypto.randomUUID()}`;

describe("REST gate decided in the shard", () => {
  it("runs exactly the admitted calls of a concurrent burst; the refused never run", async () => {
    const worker = limitedWorker();
    const shardKey = freshShard();
    const statuses = await Promise.all(
      Array.from({ length: 12 }, () =>
        write(worker, shardKey, "198.51.100.1").then((r) => r.status),
      ),
    );

    expect(statuses.filter((status) => status === 200)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(9);
    expect(await articlesIn(shardKey)).toBe(3);
  });

  it("answers admitted calls with the headers and a refusal with Retry-After, as in the worker", async () => {
    const worker = limitedWorker();
    const shardKey = freshShard();
    const answers: Response[] = [];
    for (let call = 0; call < 4; call++)
      answers.push(await write(worker, shardKey, "198.51.100.2"));

    expect(answers.map((answer) => answer.headers.get("ratelimit-remaining"))).toEqual([
      "2",
      "1",
      "0",
      "0",
    ]);
    expect(answers.map((answer) => answer.headers.get("ratelimit-limit"))).toEqual(
      Array(4).fill("3"),
    );
    const refused = answers[3]!;
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter >= 1 && retryAfter <= 3_600).toBe(true);
    expect(await refused.json()).toMatchObject({ code: "RATE_LIMITED", status: 429 });
  });

  it("decides in the shard: a call's identity is resolved before its gate, unlike in the worker", async () => {
    const resolvedIn = async (worker: ReturnType<typeof limitedWorker>, ip: string) => {
      const before = identitiesResolved;
      const statuses: number[] = [];
      for (let call = 0; call < 4; call++)
        statuses.push((await write(worker, freshShard(), ip)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      return identitiesResolved - before;
    };

    // The fourth call is refused by the shard, after admission resolved its identity ...
    expect(await resolvedIn(limitedWorker(), "198.51.100.10")).toBe(4);
    // ... and by the worker's gate before its identity when the worker decides.
    expect(await resolvedIn(limitedWorker({ decideIn: "worker" }), "198.51.100.11")).toBe(3);
  });

  it("refuses a caller refused once before its identity or body, until Retry-After", async () => {
    const worker = limitedWorker();
    const shardKey = freshShard();
    for (let call = 0; call < 4; call++) await write(worker, shardKey, "198.51.100.8");
    const resolvedBefore = identitiesResolved;
    const refused = await Promise.all(
      Array.from({ length: 5 }, () =>
        request(
          worker,
          `/_svc/rest/articles/write?shardKey=${shardKey}`,
          fromIp("198.51.100.8", { method: "POST", body: "{not json" }),
        ),
      ),
    );

    expect(refused.map((answer) => answer.status)).toEqual(Array(5).fill(429));
    expect(refused.map((answer) => answer.headers.get("ratelimit-remaining"))).toEqual(
      Array(5).fill("0"),
    );
    expect(identitiesResolved).toBe(resolvedBefore);
    // Another address is not refused: its identity is resolved and its body read (400).
    const other = await request(
      worker,
      "/_svc/rest/articles/write",
      fromIp("198.51.100.9", { method: "POST", body: "{not json" }),
    );
    expect(other.status).toBe(400);
    expect(identitiesResolved).toBe(resolvedBefore + 1);
    expect(await articlesIn(shardKey)).toBe(3);
  });

  it("counts calls that fail before their shard, and answers them 429 past the limit", async () => {
    const worker = limitedWorker();
    const shardKey = freshShard();
    const malformed = () =>
      request(
        worker,
        `/_svc/rest/articles/write?shardKey=${shardKey}`,
        fromIp("198.51.100.7", { method: "POST", body: "{not json" }),
      );
    const statuses: number[] = [];
    for (let call = 0; call < 4; call++) statuses.push((await malformed()).status);

    expect(statuses).toEqual([400, 400, 400, 429]);
    expect((await write(worker, shardKey, "198.51.100.7")).status).toBe(429);
    expect(await articlesIn(shardKey)).toBe(0);
  });

  it("with shardAccess set, decides in the worker: a limited malformed POST is 429, not 400", async () => {
    const worker = limitedWorker({ shardAccess: () => true });
    for (let call = 0; call < 3; call++)
      expect((await write(worker, freshShard(), "198.51.100.3")).status).toBe(200);
    const malformed = await request(
      worker,
      "/_svc/rest/articles/write",
      fromIp("198.51.100.3", { method: "POST", body: "{not json" }),
    );
    expect(malformed.status).toBe(429);
  });

  it("refuses decideIn values it does not know", () => {
    expect(() =>
      createRestRateLimit(limiterOf(), { name: "inShard", decideIn: "edge" as "shard" }),
    ).toThrow('decideIn must be "shard" or "worker"');
  });
});

describe("a shard that cannot decide the gate", () => {
  /**
   * The gate's ticket for one call, as admission makes it, and an
   * invocation of `articles:write` through `stub`: a stand-in for the
   * isolate boundary between a worker and its shard, which this test's one
   * isolate does not have. The shard behind it is the real one.
   */
  function gatedCall(ip: string, shardKey: string, stub: ShardEndpoint["call"]) {
    const gate = createRestRateLimit(limiterOf(), { name: "inShard" });
    const admitted: ShardGated = {};
    const request = new Request("http://svc.test/_svc/rest/articles/write", fromIp(ip));
    expect(deferToShard(gate, request, "articles:write", admitted)).toEqual({});
    const ticket = admitted.shardGate!;
    const invoke = () =>
      invokeGatedJson(
        {
          path: "articles:write",
          procedure: functions["articles:write"]!,
          args: { body: "hello" },
          identity: { userId: "writer" },
          request,
          transport: "rest",
          shardKey,
          stub: { call: stub } as unknown as ShardEndpoint,
          timeoutMs: 10_000,
        },
        ticket,
        (json, headers) => ({ json, headers }),
      );
    return { ticket, invoke };
  }

  const shardStub = (shardKey: string) => env.SHARD.getByName(shardKey) as unknown as ShardEndpoint;

  it("does not run a call whose gate the shard's isolate does not know", async () => {
    const shardKey = freshShard();
    const result = await shardStub(shardKey).call({
      path: "articles:write",
      args: { body: "hello" },
      identity: { userId: "writer" },
      service: null,
      transport: "rest",
      requestId: crypto.randomUUID(),
      shardKey,
      answerAs: "json",
      gate: { id: "no-such-rate#0", key: "198.51.100.4" },
    });

    expect(result).toMatchObject({ ok: false, gate: { unknown: true } });
    expect(await articlesIn(shardKey)).toBe(0);
  });

  it("decides in the worker when the shard does not know the gate, and calls again", async () => {
    const shardKey = freshShard();
    const sent: ShardCall[] = [];
    // The shard's isolate made no gate of this id (a gate made lazily, after module load).
    const { invoke } = gatedCall("198.51.100.5", shardKey, (call) => {
      sent.push(call);
      const real = shardStub(shardKey);
      return real.call(call.gate ? { ...call, gate: { ...call.gate, id: "unknown#0" } } : call);
    });

    const answer = await invoke();
    expect(answer.headers).toMatchObject({ "ratelimit-limit": "3", "ratelimit-remaining": "2" });
    expect(sent.map((call) => call.gate === undefined)).toEqual([false, true]);
    expect(await articlesIn(shardKey)).toBe(1);
  });

  it("counts a call that a shard of an earlier svc ran without deciding the gate", async () => {
    const shardKey = freshShard();
    // An earlier shard ignores the field it does not know, and answers no `gate`.
    const { invoke } = gatedCall("198.51.100.6", shardKey, ({ gate: _ignored, ...call }) =>
      shardStub(shardKey).call(call),
    );

    const answer = await invoke();
    expect(answer.json).toBeDefined();
    expect(answer.headers).toMatchObject({ "ratelimit-remaining": "2" });
    expect(await articlesIn(shardKey)).toBe(1);
  });
});

describe("refusals held in the worker", () => {
  const refusal = (retryAfter: number) =>
    ({ ok: false, retryAfter, limit: 3, remaining: 0, resetAfter: 60_000 }) as const;

  it("holds a refusal from when its decision was asked for, never past the store's retry time", () => {
    const refusals = new RefusalCache();
    const now = Date.now();
    // A verdict that took 60 ms to come back through a shard: the store refused for 100 ms then.
    refusals.note("198.51.100.20", refusal(100), now - 60);
    const held = refusals.verdictOf("198.51.100.20");
    expect(held?.ok).toBe(false);
    expect(held?.retryAfter).toBeGreaterThan(0);
    expect(held?.retryAfter).toBeLessThanOrEqual(40);
    expect(held?.resetAfter).toBeLessThanOrEqual(60_000 - 60);
    // One whose retry time passed on the way back is not held at all.
    refusals.note("198.51.100.21", refusal(50), now - 60);
    expect(refusals.verdictOf("198.51.100.21")).toBeUndefined();
  });
});
