import { beforeAll, describe, expect, it } from "vitest";
import { appForThisFile } from "./harness.ts";
import { rawRequest } from "./raw-http.ts";

const app = appForThisFile();
let bearer: string;

beforeAll(async () => {
  const signUp = await fetch(`${app.url}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: app.url },
    body: JSON.stringify({
      email: "victim@example.com",
      password: "a long password",
      name: "Victim",
    }),
  });
  bearer = signUp.headers.get("set-auth-token") ?? "";
  await rpc("messages:send", { body: "keep me" });
}, 90_000);

async function rpc(path: string, args: unknown): Promise<unknown> {
  const response = await fetch(`${app.url}/_svc/rpc`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${bearer}` },
    body: JSON.stringify({ path, args }),
  });
  return ((await response.json()) as { value: unknown }).value;
}

/** What must not change whatever the hostile requests do. */
async function state(): Promise<unknown> {
  return { messages: await rpc("messages:list", {}), notices: await rpc("messages:notices", {}) };
}

const json = { "content-type": "application/json" };
const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
const invalidUtf8 = new Uint8Array([
  0x7b, 0x22, 0x62, 0x6f, 0x64, 0x79, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0xff, 0x22, 0x7d,
]);
const twoMiB = JSON.stringify({ body: "x".repeat(2 * 1024 * 1024) });
const withAuth = () => ({ authorization: `Bearer ${bearer}` });

/** [surface, method, path, headers, body] */
type Case = [string, string, string, Record<string, string>, (string | Uint8Array)?];

const svcCases = (): Case[] => [
  [
    "rpc: truncated JSON",
    "POST",
    "/_svc/rpc",
    { ...json, ...withAuth() },
    '{"path":"messages:send","args":{"body":"x"',
  ],
  [
    "rpc: wrong content type",
    "POST",
    "/_svc/rpc",
    { "content-type": "text/plain", ...withAuth() },
    '{"path":"messages:send","args":{"body":"x"}}',
  ],
  [
    "rpc: 2 MiB body",
    "POST",
    "/_svc/rpc",
    { ...json, ...withAuth() },
    JSON.stringify({ path: "messages:send", args: { body: "x".repeat(2 * 1024 * 1024) } }),
  ],
  [
    "rpc: 100k-deep nesting",
    "POST",
    "/_svc/rpc",
    { ...json, ...withAuth() },
    `{"path":"messages:send","args":{"body":${deep}}}`,
  ],
  ["rpc: invalid UTF-8", "POST", "/_svc/rpc", { ...json, ...withAuth() }, invalidUtf8],
  ["rpc: TRACE", "TRACE", "/_svc/rpc", {}],
  ["rpc: OPTIONS", "OPTIONS", "/_svc/rpc", {}],
  ["rpc: HEAD", "HEAD", "/_svc/rpc", {}],
  [
    "rpc: oversize shard key header",
    "POST",
    "/_svc/rpc",
    { ...json, "x-svc-shard-key": "k".repeat(300) },
    '{"path":"messages:notices"}',
  ],
  [
    "rpc: duplicate shardKey",
    "POST",
    "/_svc/rpc?shardKey=a&shardKey=b",
    json,
    '{"path":"messages:notices"}',
  ],
  [
    "rest: truncated JSON",
    "POST",
    "/_svc/rest/messages/send",
    { ...json, ...withAuth() },
    '{"body":"x',
  ],
  [
    "rest: form body",
    "POST",
    "/_svc/rest/messages/send",
    { "content-type": "application/x-www-form-urlencoded", ...withAuth() },
    "body=x",
  ],
  ["rest: 2 MiB body", "POST", "/_svc/rest/messages/send", { ...json, ...withAuth() }, twoMiB],
  [
    "rest: deep nesting",
    "POST",
    "/_svc/rest/messages/send",
    { ...json, ...withAuth() },
    `{"body":${deep}}`,
  ],
  [
    "rest: invalid UTF-8",
    "POST",
    "/_svc/rest/messages/send",
    { ...json, ...withAuth() },
    invalidUtf8,
  ],
  [
    "rest: encoded slash",
    "POST",
    "/_svc/rest/messages%2Fsend",
    { ...json, ...withAuth() },
    '{"body":"x"}',
  ],
  [
    "rest: dot segments out of the REST prefix into admin",
    "GET",
    "/_svc/rest/../admin/auth/users",
    withAuth(),
  ],
  ["rest: encoded dot segments into admin", "GET", "/_svc/rest/%2e%2e/admin/openapi", withAuth()],
  [
    "rest: dot segments to a hidden procedure",
    "POST",
    "/_svc/rest/hello/../messages/notice",
    { ...json, ...withAuth() },
    '{"text":"x"}',
  ],
  ["rest: duplicate query keys", "GET", "/_svc/rest/messages/list?channel=a&channel=b", withAuth()],
  ["rest: TRACE", "TRACE", "/_svc/rest/messages/list", {}],
  ["rest: OPTIONS", "OPTIONS", "/_svc/rest/messages/send", {}],
  [
    "rest: oversize shard key",
    "GET",
    `/_svc/rest/messages/list?shardKey=${"k".repeat(300)}`,
    withAuth(),
  ],
  [
    "rest: control character in shard key",
    "GET",
    "/_svc/rest/messages/list?shardKey=a%01b",
    withAuth(),
  ],
  ["admin: no token, POST body", "POST", "/_svc/admin/auth/users", json, '{"email":'],
  ["admin: TRACE", "TRACE", "/_svc/admin/auth/users", {}],
  ["admin: bogus token", "DELETE", "/_svc/admin/auth/users/x", { authorization: "Bearer nope" }],
  ["reserved: unknown /_svc path", "POST", "/_svc/../_svc/whatever", json, "{}"],
];

const authCases = (): Case[] => [
  [
    "auth: truncated JSON",
    "POST",
    "/api/auth/sign-up/email",
    { ...json, origin: app.url },
    '{"email":"a@b.c","password":"a long password"',
  ],
  [
    "auth: wrong content type",
    "POST",
    "/api/auth/sign-up/email",
    { "content-type": "text/plain", origin: app.url },
    "email=a",
  ],
  [
    "auth: invalid UTF-8",
    "POST",
    "/api/auth/sign-in/email",
    { ...json, origin: app.url },
    invalidUtf8,
  ],
  [
    "auth: deep nesting",
    "POST",
    "/api/auth/sign-in/email",
    { ...json, origin: app.url },
    `{"email":${deep}}`,
  ],
  ["auth: TRACE", "TRACE", "/api/auth/get-session", {}],
  [
    "auth: unknown endpoint",
    "POST",
    "/api/auth/../auth/sign-up/email",
    { ...json, origin: app.url },
    "{}",
  ],
];

describe("hostile input gets a clear 4xx, never a 5xx, a hang or a state change", () => {
  it("on the svc surfaces (RPC, REST, admin, reserved paths): 4xx problem details", async () => {
    const before = await state();
    const failures: string[] = [];
    for (const [name, method, path, headers, body] of svcCases()) {
      const answer = await rawRequest(app.url, {
        method,
        path,
        headers,
        ...(body !== undefined ? { body } : {}),
      });
      const isProblem = String(answer.headers["content-type"]).startsWith(
        "application/problem+json",
      );
      if (answer.status < 400 || answer.status >= 500 || (method !== "HEAD" && !isProblem)) {
        failures.push(
          `${name}: ${answer.status} ${answer.headers["content-type"]} ${answer.body.slice(0, 120)}`,
        );
      }
    }
    expect(failures).toEqual([]);
    expect(await state()).toEqual(before);
  }, 120_000);

  it("on better-auth's /api/auth/*: 4xx, never 5xx", async () => {
    const before = await state();
    const failures: string[] = [];
    for (const [name, method, path, headers, body] of authCases()) {
      const answer = await rawRequest(app.url, {
        method,
        path,
        headers,
        ...(body !== undefined ? { body } : {}),
      });
      if (answer.status < 400 || answer.status >= 500)
        failures.push(`${name}: ${answer.status} ${answer.body.slice(0, 120)}`);
    }
    expect(failures).toEqual([]);
    expect(await state()).toEqual(before);
  }, 120_000);

  it("refuses huge headers on /_svc/* with 400 problem details", async () => {
    for (const path of [
      "/_svc/rest/hello/ping",
      "/_svc/rpc",
      "/_svc/admin/auth/users",
      "/_svc/dashboard/",
    ]) {
      const answer = await rawRequest(app.url, {
        method: "GET",
        path,
        headers: { "x-huge": "h".repeat(256 * 1024) },
      });
      expect(answer.status, path).toBe(400);
      expect(JSON.parse(answer.body)).toMatchObject({
        code: "BAD_REQUEST",
        detail: "The request headers are larger than 65536 bytes.",
      });
    }
  });

  it("resolves dot segments before routing, so a resolved path meets exactly the gates of the canonical one", async () => {
    // The runtime's URL parser resolves `..` (also `%2e%2e`) before the worker sees the path, as RFC 3986 says;
    // what matters is that nothing escapes a gate: each lands where its resolved path lands.
    const viaDots = await rawRequest(app.url, {
      method: "GET",
      path: "/_svc/rest/messages/../hello/ping?name=dots",
    });
    expect(viaDots.status).toBe(200);
    expect(JSON.parse(viaDots.body)).toBe("pong dots");
    const intoAdmin = await rawRequest(app.url, {
      method: "GET",
      path: "/_svc/rest/%2e%2e/admin/openapi",
    });
    expect(intoAdmin.status).toBe(401);
  });
});
