import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { createRateLimiter, HOUR } from "@svc/ratelimit";
import { describe, expect, it } from "vitest";
import {
  type ApiKeyCaller,
  apiKeyScopeAllows,
  type CallRecord,
  createApiKeyRateLimit,
  createWorker,
  type Identity,
  isApiKeyScope,
  type PolicyCtx,
  rule,
} from "../src/index.ts";
import { authContext } from "../src/model/identity.ts";
import { evaluateRule } from "../src/schema/rule.ts";
import { contextsWaitedAtEnd } from "./contexts-waited-at-end.ts";
import { http } from "./fixture/entry-points.ts";
import { functions } from "./fixture/functions.ts";
import { recordingWorker } from "./worker.ts";

/**
 * What `createWorker` does with an API key caller (issue 31, item 4): scopes
 * at admission and per subscription, the per-key limit, `ctx.auth`. The key
 * itself (hashing, storage, revocation) is `@svc/auth`'s and tested there
 * over real D1; here a resolver reads the test headers into the identity an
 * API key resolver returns.
 */

const keyOf = (request: Request): ApiKeyCaller | undefined => {
  const scopes = request.headers.get("x-test-key-scopes");
  if (scopes === null) return undefined;
  const org = request.headers.get("x-test-key-org");
  return {
    id: request.headers.get("x-test-key-id") ?? "key-1",
    name: "test key",
    prefix: "svc_test",
    ownerUserId: org === null ? "ann" : null,
    ownerOrganizationId: org,
    scopes: scopes.split(",").filter(Boolean),
  };
};

const limiter = createRateLimiter({
  store: "RATE_LIMITER",
  rates: { apiKeys: { kind: "fixed window", rate: 2, period: HOUR } },
});
const identityOf = (request: Request): Identity | null => {
  const apiKey = keyOf(request);
  if (apiKey === undefined) return null;
  return { userId: apiKey.ownerUserId ?? `apiKey:${apiKey.id}`, apiKey };
};
const worker = createWorker({
  shardDO: "SHARD",
  functions,
  http,
  resolveIdentity: identityOf,
  apiKeyRateLimit: createApiKeyRateLimit(limiter, { name: "apiKeys" }),
  // The partitions the recording worker reads: a writer picks one of its
  // partitions at random, so a wider spread would hide the record at times.
  logs: { console: false, partitions: 2 },
});
const context = contextsWaitedAtEnd();
const send = (request: Request) => worker.fetch(request, env, context());

/** An answer's status, its body left unread (cancelled, so its record can finish). */
async function statusOf(answer: Promise<Response>): Promise<number> {
  const response = await answer;
  await response.body?.cancel();
  return response.status;
}

/** Each call gets a key of its own (the limit is 2 per key), unless the test names one. */
let keys = 0;
function rpc(path: string, args: unknown, scopes: string, extra: Record<string, string> = {}) {
  return send(
    new Request("http://svc.test/_svc/rpc?shardKey=api-keys", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-test-key-scopes": scopes,
        "x-test-key-id": `key-${++keys}`,
        ...extra,
      },
      body: JSON.stringify({ path, args }),
    }),
  );
}

describe("API key callers", () => {
  it("reach what their scopes cover and get 403 for the rest, over RPC and REST", async () => {
    expect(await statusOf(rpc("notes:add", { text: "hi" }, "notes"))).toBe(200);
    expect(await statusOf(rpc("notes:all", {}, "notes:all"))).toBe(200);
    const refused = await rpc("notes:add", { text: "hi" }, "notes.readonly,messages");
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({
      code: "FORBIDDEN",
      detail: "This API key's scopes do not cover notes:add.",
    });
    const rest = (scopes: string) =>
      send(
        new Request("http://svc.test/_svc/rest/notes/whoami?shardKey=api-keys", {
          headers: { "x-test-key-scopes": scopes, "x-test-key-id": `key-${++keys}` },
        }),
      );
    expect(await statusOf(rest("*.readonly"))).toBe(200);
    expect(await statusOf(rest("messages"))).toBe(403);
  });

  it("call as the key on behalf of its owner: ctx.auth.kind is apiKey", async () => {
    const own = await rpc("notes:whoami", {}, "*");
    expect(await own.json()).toMatchObject({
      value: { userId: "ann", identity: { userId: "ann", apiKey: { ownerUserId: "ann" } } },
    });
    const org = await rpc("notes:whoami", {}, "*", { "x-test-key-org": "org-1" });
    expect(await org.json()).toMatchObject({
      value: { userId: null, identity: { apiKey: { ownerOrganizationId: "org-1" } } },
    });
  });

  it("limit each key on its own: 429 with Retry-After and RateLimit headers, never 401", async () => {
    const call = () => rpc("notes:all", {}, "notes", { "x-test-key-id": "limited" });
    const first = await call();
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-remaining")).toBe("1");
    await first.body?.cancel();
    expect(await statusOf(call())).toBe(200);
    const limited = await call();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(limited.headers.get("ratelimit-remaining")).toBe("0");
    expect(await limited.json()).toMatchObject({ code: "RATE_LIMITED" });
    expect(await statusOf(rpc("notes:all", {}, "notes"))).toBe(200);
  });

  it("reach HTTP actions with the scope * only (*.readonly: GET and HEAD)", async () => {
    const action = (method: string, path: string, scopes: string) =>
      send(
        new Request(`http://svc.test${path}`, {
          method,
          headers: {
            "x-test-key-scopes": scopes,
            "x-test-key-id": `key-${++keys}`,
            "content-type": "application/json",
          },
          ...(method === "POST" ? { body: JSON.stringify({ text: "by key" }) } : {}),
        }),
      );
    expect(await statusOf(action("GET", "/hello/ann", "notes"))).toBe(403);
    const read = await action("GET", "/hello/ann", "*.readonly");
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ kind: "apiKey" });
    expect(read.headers.get("ratelimit-remaining")).toBe("1");
    expect(await statusOf(action("POST", "/notes", "*.readonly"))).toBe(403);
    expect(await statusOf(action("POST", "/notes", "*"))).toBe(201);
  });

  it("subscribe only to queries their scopes cover", async () => {
    // Each subscribe spends from the key's bucket too (issue 53): room for the open and two.
    const roomy = createWorker({
      shardDO: "SHARD",
      functions,
      resolveIdentity: identityOf,
      apiKeyRateLimit: createApiKeyRateLimit(
        createRateLimiter({
          store: "RATE_LIMITER",
          rates: { roomyKeys: { kind: "fixed window", rate: 10, period: HOUR } },
        }),
        { name: "roomyKeys" },
      ),
    });
    const response = await roomy.fetch(
      new Request("http://svc.test/_svc/ws?shardKey=api-keys", {
        headers: {
          upgrade: "websocket",
          "sec-websocket-protocol": "svc.v1",
          "x-test-key-scopes": "notes.readonly",
          "x-test-key-id": "socket-key",
        },
      }),
      env,
      context(),
    );
    expect(response.status).toBe(101);
    const ws = response.webSocket!;
    ws.accept();
    const frames: { id?: string; type: string; error?: { code: string } }[] = [];
    const both = new Promise<void>((resolve) =>
      ws.addEventListener("message", (event) => {
        frames.push(JSON.parse(String(event.data)));
        if (new Set(frames.map((frame) => frame.id)).size === 2) resolve();
      }),
    );
    ws.send(JSON.stringify({ type: "subscribe", id: "in", path: "notes:all" }));
    ws.send(JSON.stringify({ type: "subscribe", id: "out", path: "messages:list" }));
    await both;
    ws.close(1000);
    expect(frames.find((frame) => frame.id === "in")?.type).toBe("value");
    expect(frames.find((frame) => frame.id === "out")).toMatchObject({
      type: "error",
      error: { code: "FORBIDDEN" },
    });
  });
});

describe("API key scopes", () => {
  it.each([
    [["*"], "messages:send", "mutation", true],
    [["*.readonly"], "messages:send", "mutation", false],
    [["*.readonly"], "messages:ticks", "stream", true],
    [["messages"], "messages/archive:list", "query", true],
    [["messages"], "messagesx:list", "query", false],
    [["messages:send"], "messages:sendAll", "mutation", false],
    [["admin/users.readonly"], "admin/users:list", "query", true],
    [["messages"], null, "action", false],
    [["*"], null, "action", true],
  ] as const)("%j covers %s (%s): %s", (scopes, path, kind, allowed) => {
    expect(apiKeyScopeAllows(scopes, { path, kind })).toBe(allowed);
  });

  it.each([
    ["*", true],
    ["messages/archive:list.readonly", true],
    ["messages.readonly.readonly", false],
    ["messages:", false],
    ["read:messages:list", false],
    ["", false],
  ])("%j is a scope: %s", (scope, valid) => {
    expect(isApiKeyScope(scope)).toBe(valid);
  });

  it("lets declarative rules compare a field with the calling key's owner", async () => {
    const apiKey = keyOf(
      new Request("http://svc.test", {
        headers: { "x-test-key-scopes": "*", "x-test-key-org": "org-1" },
      }),
    );
    const ctx: PolicyCtx = {
      auth: authContext(apiKey ? { userId: `apiKey:${apiKey.id}`, apiKey } : null, null),
      meta: { path: "t:t", kind: "query", transport: "rpc", shardKey: "default", requestId: "r" },
    };
    const sameOrg = rule.eq("org", rule.apiKey("ownerOrganizationId"));
    expect(await evaluateRule(sameOrg, ctx, { org: "org-1" })).toBe(true);
    expect(await evaluateRule(sameOrg, ctx, { org: "org-2" })).toBe(false);
    expect(await evaluateRule(rule.callerIs("apiKey"), ctx, {})).toBe(true);
    expect(await evaluateRule(rule.eq("owner", rule.apiKey("ownerUserId")), ctx, {})).toBe(false);
  });
});

describe("an API key's call record", () => {
  it("names the key (its id, never its secret) and its owner as the caller", async () => {
    const secret = "svc_test_secret_never_recorded";
    // Its own execution context, awaited: the record leaves through waitUntil.
    const ctx = createExecutionContext();
    const answer = await worker.fetch(
      new Request("http://svc.test/_svc/rpc?shardKey=api-keys", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-test-key-scopes": "notes",
          "x-test-key-id": "key-recorded",
          authorization: `Bearer ${secret}`,
        },
        body: JSON.stringify({ path: "notes:all", args: {} }),
      }),
      env,
      ctx,
    );
    expect(answer.status).toBe(200);
    await answer.text(); // the record is complete once the answer has been sent
    await waitOnExecutionContext(ctx);
    // This worker records into the same log store the recording worker's admin API reads.
    const deadline = Date.now() + 15_000;
    for (;;) {
      const response = await recordingWorker.fetch(
        new Request("http://svc.test/_svc/admin/logs?limit=200&function=notes:all", {
          headers: { authorization: "Bearer test-admin-token-0123456789abcdef" },
        }),
        env,
        context(),
      );
      const { records } = (await response.json()) as { records: CallRecord[] };
      const record = records.find((r) => "id" in r.caller && r.caller.id === "key-recorded");
      if (record !== undefined) {
        expect(record).toMatchObject({
          entry: "rpc",
          shardKey: "api-keys",
          caller: { kind: "apiKey", id: "key-recorded", userId: "ann" },
          status: 200,
        });
        expect(JSON.stringify(record)).not.toContain(secret);
        return;
      }
      if (Date.now() > deadline) throw new Error("no record of the API key's call within 15 s");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
});
