import { env } from "cloudflare:workers";
import { createRateLimiter, HOUR } from "@svc/ratelimit";
import { createApiKeyRateLimit, createWorker } from "@svc/server";
import { beforeAll, describe, expect, it } from "vitest";
import {
  apiKeyIdentity,
  apiKeySelfService,
  createAuth,
  createAuthAdmin,
  sessionIdentity,
  svcDatabaseAdapter,
} from "../src/index.ts";
import { admin, bearer, organization } from "../src/plugins.ts";
import { sha256Hex } from "../src/sha256-hex.ts";
import { TEST_ORIGIN, TEST_SECRET } from "./fixture/constants.ts";
import { functions } from "./fixture/functions.ts";
import { freshEmail } from "./http.ts";
import { inProcessApp } from "./in-process-app.ts";

/**
 * API keys (issue 31, item 4) in workerd over a real D1 database and real
 * better-auth: the admin API and self-service create them, the resolver
 * turns them into callers, revocation, expiry, bans and deletion end them.
 * The example app drives the same over real HTTP (examples/app).
 */

const TOKEN = "api-key-test-admin-token-0123456789abcdef";
const auth = createAuth({
  secret: TEST_SECRET,
  baseURL: TEST_ORIGIN,
  database: svcDatabaseAdapter(env.API_KEYS),
  emailAndPassword: { enabled: true },
  plugins: [admin(), organization(), bearer(), apiKeySelfService({ maxKeysPerOwner: 3 })],
});
const limiter = createRateLimiter({
  store: "RATE_LIMITER",
  rates: { apiKeys: { kind: "fixed window", rate: 12, period: HOUR } },
});
const svc = createWorker({
  shardDO: "SHARD",
  functions,
  resolveIdentity: apiKeyIdentity(auth, { otherwise: sessionIdentity(auth) }),
  adminToken: { ops: TOKEN },
  authAdmin: createAuthAdmin(auth, { dashboard: false }),
  apiKeyRateLimit: createApiKeyRateLimit(limiter, { name: "apiKeys" }),
});

const send = inProcessApp(auth, svc);

const adminCall = (method: string, path: string, body?: unknown) =>
  send(`/_svc/admin/auth/${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

const whoami = (headers: HeadersInit) =>
  send("/_svc/rpc", { method: "POST", headers, body: '{"path":"session:whoami"}' });

/** Signs a user up; answers their id and bearer session token. */
async function signUp(label: string): Promise<{ id: string; token: string; email: string }> {
  const email = freshEmail(label);
  const response = await send("/api/auth/sign-up/email", {
    method: "POST",
    body: JSON.stringify({ email, password: "a long password", name: label }),
  });
  const body = (await response.json()) as { user: { id: string } };
  return { id: body.user.id, token: response.headers.get("set-auth-token") ?? "", email };
}

interface Created {
  apiKey: { id: string; prefix: string; scopes: string[]; revokedAt: string | null };
  key: string;
}

async function createKey(body: Record<string, unknown>): Promise<Created> {
  const response = await adminCall("POST", "api-keys", body);
  const text = await response.text();
  expect(response.status, text).toBe(201);
  return JSON.parse(text) as Created;
}

/** Calls with `key` until it is refused (at most 5 s), and answers the last status. */
async function statusOnceRefused(key: string): Promise<number> {
  const deadline = Date.now() + 5_000;
  let status = 200;
  while (status === 200 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    status = (await whoami({ "x-api-key": key })).status;
  }
  return status;
}

let ann: { id: string; token: string; email: string };
beforeAll(async () => {
  ann = await signUp("ann");
});

describe("API keys from the admin API", () => {
  it("are shown once, stored as a hash, and call as their owner", async () => {
    const { apiKey, key } = await createKey({ ownerUserId: ann.id, name: "CI", scopes: ["*"] });
    expect(key).toMatch(/^svc_[A-Za-z0-9]{48}$/);
    expect(key.startsWith(apiKey.prefix)).toBe(true);
    expect(JSON.stringify(apiKey)).not.toContain(key.slice(apiKey.prefix.length));
    const listed = await (await adminCall("GET", `api-keys?ownerUserId=${ann.id}`)).text();
    expect(listed).toContain(apiKey.id);
    expect(listed).not.toContain(key);

    const rows = await env.API_KEYS.prepare('SELECT * FROM "svcApiKey" WHERE id = ?')
      .bind(apiKey.id)
      .all();
    expect(JSON.stringify(rows.results)).not.toContain(key);
    expect(rows.results[0]).toMatchObject({ keyHash: await sha256Hex(key) });

    const forms: Record<string, string>[] = [
      { "x-api-key": key },
      { authorization: `Bearer ${key}` },
    ];
    for (const headers of forms) {
      const response = await whoami(headers);
      expect(await response.json()).toMatchObject({
        value: { userId: ann.id, identity: { apiKey: { id: apiKey.id, ownerUserId: ann.id } } },
      });
    }
    // A better-auth bearer session still resolves as the session.
    expect(await (await whoami({ authorization: `Bearer ${ann.token}` })).json()).toMatchObject({
      value: { userId: ann.id, identity: { sessionId: expect.any(String) } },
    });
  });

  it("refuse what their scopes do not cover with 403", async () => {
    const { key } = await createKey({ ownerUserId: ann.id, name: "narrow", scopes: ["captcha"] });
    const response = await whoami({ "x-api-key": key });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: "FORBIDDEN" });
  });

  it("answer 401 once revoked, expired, of a banned owner, or unknown", async () => {
    const revoked = await createKey({ ownerUserId: ann.id, name: "r", scopes: ["*"] });
    expect((await whoami({ "x-api-key": revoked.key })).status).toBe(200);
    const answer = await adminCall("DELETE", `api-keys/${revoked.apiKey.id}`);
    expect(((await answer.json()) as Created).apiKey.revokedAt).not.toBeNull();
    // This isolate forgets the key at once (other isolates within the cache's second).
    const refused = await whoami({ "x-api-key": revoked.key });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toContain("Bearer");

    const expiring = await createKey({
      ownerUserId: ann.id,
      name: "e",
      scopes: ["*"],
      expiresInSeconds: 1,
    });
    expect(await statusOnceRefused(expiring.key)).toBe(401);

    const bob = await signUp("bob");
    const bobs = await createKey({ ownerUserId: bob.id, name: "b", scopes: ["*"] });
    expect((await whoami({ "x-api-key": bobs.key })).status).toBe(200);
    expect((await adminCall("POST", `users/${bob.id}/ban`, {})).status).toBe(200);
    // Within the key cache's second.
    expect(await statusOnceRefused(bobs.key)).toBe(401);

    const unknown = `svc_${"A".repeat(48)}`;
    expect((await whoami({ "x-api-key": unknown })).status).toBe(401);
    expect((await whoami({ "x-api-key": "not a key" })).status).toBe(401);
  });

  it("are limited per key: 429 with Retry-After and RateLimit headers", async () => {
    const { key } = await createKey({ ownerUserId: ann.id, name: "busy", scopes: ["session"] });
    for (let i = 0; i < 12; i++) expect((await whoami({ "x-api-key": key })).status).toBe(200);
    const limited = await whoami({ "x-api-key": key });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(limited.headers.get("ratelimit-remaining")).toBe("0");
  });

  it("are audited, refuse malformed requests, and go with their owner", async () => {
    const carl = await signUp("carl");
    const created = await createKey({ ownerUserId: carl.id, name: "gone", scopes: ["*"] });
    const trail = (await (await adminCall("GET", `audit?target=${created.apiKey.id}`)).json()) as {
      entries: { action: string; operator: string; detail: string }[];
    };
    expect(trail.entries[0]).toMatchObject({ action: "api-key.create", operator: "ops" });
    for (const body of [
      { ownerUserId: carl.id, name: "x", scopes: ["messages:"] },
      { ownerUserId: carl.id, ownerOrganizationId: "o", name: "x", scopes: ["*"] },
      { ownerUserId: carl.id, name: "x", scopes: [] },
    ]) {
      expect((await adminCall("POST", "api-keys", body)).status).toBe(400);
    }
    expect(
      (await adminCall("POST", "api-keys", { ownerUserId: "nobody", name: "x", scopes: ["*"] }))
        .status,
    ).toBe(404);
    expect((await adminCall("DELETE", `users/${carl.id}`)).status).toBe(200);
    const left = await env.API_KEYS.prepare('SELECT id FROM "svcApiKey" WHERE id = ?')
      .bind(created.apiKey.id)
      .first();
    expect(left).toBeNull();
  });
});

describe("API keys a signed-in user manages", () => {
  const own = (token: string, method: string, path = "", body?: unknown) =>
    send(`/api/auth/api-keys${path}`, {
      method,
      headers: { authorization: `Bearer ${token}` },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  it("create, list and revoke their own keys, and never another's", async () => {
    const dana = await signUp("dana");
    const created = await own(dana.token, "POST", "", { name: "laptop", scopes: ["session"] });
    expect(created.status).toBe(201);
    const { apiKey, key } = (await created.json()) as Created;
    expect((await whoami({ "x-api-key": key })).status).toBe(200);
    const listed = (await (await own(dana.token, "GET")).json()) as { apiKeys: { id: string }[] };
    expect(listed.apiKeys.map((k) => k.id)).toEqual([apiKey.id]);

    const eve = await signUp("eve");
    expect((await own(eve.token, "DELETE", `/${apiKey.id}`)).status).toBe(404);
    expect((await own(dana.token, "DELETE", `/${apiKey.id}`)).status).toBe(200);
    expect((await whoami({ "x-api-key": key })).status).toBe(401);
    expect((await own("", "GET")).status).toBe(401);
  });

  it("cannot be minted by an impersonation session", async () => {
    const ivy = await signUp("ivy");
    const impersonation = (await (
      await adminCall("POST", `users/${ivy.id}/impersonate`, { reason: "support" })
    ).json()) as { token: string };
    const refused = await own(impersonation.token, "POST", "", { name: "x", scopes: ["*"] });
    expect(refused.status).toBe(403);
    expect((await (await own(ivy.token, "GET")).json()) as object).toEqual({ apiKeys: [] });
  });

  it("hold at most maxKeysPerOwner keys in force", async () => {
    const fay = await signUp("fay");
    for (let i = 0; i < 3; i++)
      expect((await own(fay.token, "POST", "", { name: `k${i}`, scopes: ["*"] })).status).toBe(201);
    expect((await own(fay.token, "POST", "", { name: "k3", scopes: ["*"] })).status).toBe(403);
  });

  it("manage an organization's keys as its owner, not as a plain member", async () => {
    const gil = await signUp("gil");
    const hal = await signUp("hal");
    const orgResponse = await adminCall("POST", "organizations", {
      name: "Acme",
      slug: `acme-${gil.id.toLowerCase()}`,
      ownerId: gil.id,
    });
    const org = JSON.parse(await orgResponse.text()) as { organization: { id: string } };
    expect(orgResponse.status, JSON.stringify(org)).toBe(201);
    const orgId = org.organization.id;
    expect(
      (
        await adminCall("POST", `organizations/${orgId}/members`, {
          userId: hal.id,
          role: "member",
        })
      ).status,
    ).toBe(201);
    const body = { name: "deploys", scopes: ["session.readonly"], organizationId: orgId };
    expect((await own(hal.token, "POST", "", body)).status).toBe(403);
    const created = await own(gil.token, "POST", "", body);
    expect(created.status).toBe(201);
    const { key } = (await created.json()) as Created;
    expect(await (await whoami({ "x-api-key": key })).json()).toMatchObject({
      value: { userId: null, identity: { apiKey: { ownerOrganizationId: orgId } } },
    });
  });
});

/** A live-query socket opened through the app with `headers`, and the frames it received. */
async function socketWith(headers: Record<string, string>) {
  const response = await send(`/_svc/ws?shardKey=keys-${crypto.randomUUID()}`, {
    headers: { upgrade: "websocket", "sec-websocket-protocol": "svc.v1", ...headers },
  });
  expect(response.status).toBe(101);
  const ws = response.webSocket!;
  ws.accept();
  const frames: { type: string; id?: string; error?: { code: string } }[] = [];
  ws.addEventListener("message", (event) => frames.push(JSON.parse(String(event.data))));
  const closed = new Promise<CloseEvent>((resolve) => ws.addEventListener("close", resolve));
  const subscribe = (id: string) =>
    ws.send(JSON.stringify({ type: "subscribe", id, path: "session:whoami" }));
  const answerTo = async (id: string) => {
    await expect.poll(() => frames.some((frame) => frame.id === id)).toBe(true);
    return frames.find((frame) => frame.id === id);
  };
  return { ws, frames, closed, subscribe, answerTo };
}

describe("API keys on live-query sockets (issue 53, points 3 and 7)", () => {
  it("spend the key's bucket on each subscribe, with a 429 error frame once spent", async () => {
    const { key } = await createKey({ ownerUserId: ann.id, name: "socket", scopes: ["session"] });
    // The socket's open spends one of the 12; each subscribe one more.
    const socket = await socketWith({ "x-api-key": key });
    for (let i = 0; i < 11; i++) {
      socket.subscribe(`s${i}`);
      expect(await socket.answerTo(`s${i}`)).toMatchObject({ type: "value" });
      socket.ws.send(JSON.stringify({ type: "unsubscribe", id: `s${i}` }));
    }
    socket.subscribe("over");
    expect(await socket.answerTo("over")).toMatchObject({
      type: "error",
      error: { code: "RATE_LIMITED", status: 429 },
    });
    expect((await whoami({ "x-api-key": key })).status).toBe(429);
    socket.ws.close();
  });

  it("close a revoked key's socket on its next subscribe, within a second", async () => {
    const { apiKey, key } = await createKey({ ownerUserId: ann.id, name: "gone", scopes: ["*"] });
    const socket = await socketWith({ authorization: `Bearer ${key}` });
    socket.subscribe("before");
    expect(await socket.answerTo("before")).toMatchObject({ type: "value" });
    expect((await adminCall("DELETE", `api-keys/${apiKey.id}`)).status).toBe(200);
    const revokedAt = Date.now();
    socket.subscribe("after");
    const { code } = await socket.closed;
    expect(code).toBe(4001);
    expect(Date.now() - revokedAt).toBeLessThan(1_000);
    expect(socket.frames.some((frame) => frame.id === "after")).toBe(false);
  });

  it("close a banned user's session socket on its next subscribe", async () => {
    const ida = await signUp("ida");
    const socket = await socketWith({ authorization: `Bearer ${ida.token}` });
    socket.subscribe("before");
    expect(await socket.answerTo("before")).toMatchObject({ type: "value" });
    expect((await adminCall("POST", `users/${ida.id}/ban`, {})).status).toBe(200);
    const bannedAt = Date.now();
    socket.subscribe("after");
    expect((await socket.closed).code).toBe(4001);
    expect(Date.now() - bannedAt).toBeLessThan(1_000);
  });
});
