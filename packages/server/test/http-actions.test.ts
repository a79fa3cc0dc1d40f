import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { describeApp } from "../src/codegen/index.ts";
import { httpAction, httpRouter } from "../src/index.ts";
import * as entryPoints from "./fixture/entry-points.ts";
import * as jobs from "./fixture/jobs.ts";
import { rpcValue } from "./rpc.ts";

const BASE = "http://svc.test";

function call(path: string, init: RequestInit & { user?: string } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.user) headers.set("x-test-user", init.user);
  return exports.default.fetch(`${BASE}${path}`, { ...init, headers });
}

describe("HTTP actions", () => {
  it("answer with path params and the caller's identity", async () => {
    const anonymous = await call("/hello/w%C3%B6rld");
    expect(anonymous.status).toBe(200);
    expect(await anonymous.json()).toEqual({
      name: "wörld",
      kind: "anonymous",
      route: "/hello/:name",
    });
    const user = await call("/hello/bob", { user: "u1" });
    expect(await user.json()).toMatchObject({ kind: "user" });
  });

  it("run middleware: 401 problem details without a session, the extension with one", async () => {
    const anonymous = await call("/me");
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("content-type")).toBe("application/problem+json");
    expect(await anonymous.json()).toMatchObject({
      code: "UNAUTHENTICATED",
      detail: "Sign in first.",
    });
    const signedIn = await call("/me", { user: "alice" });
    expect(await signedIn.json()).toEqual({ userId: "alice", viewer: "viewer alice" });
  });

  it("validate declared arguments and call shards by key, with RLS as the caller", async () => {
    const created = await call("/notes", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ text: "from http", shard: "http-notes" }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const notes = await rpcValue<{ _id: string; text: string }[]>(
      "notes:all",
      {},
      { shardKey: "http-notes" },
    );
    expect(notes.map((note) => [note._id, note.text])).toEqual([[id, "from http"]]);

    const invalid = await call("/notes", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ text: 42 }),
    });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({
      code: "VALIDATION_FAILED",
      errors: [{ path: "args.text", message: expect.any(String) }],
    });
  });

  it("call shards as the caller: RLS shows each user only their rows", async () => {
    await rpcValue("messages:send", { body: "alice's" }, { user: "alice", shardKey: "http-rls" });
    await rpcValue("messages:send", { body: "bob's" }, { user: "bob", shardKey: "http-rls" });
    const read = async (user?: string) =>
      (await call("/shards/http-rls/messages", user ? { user } : {})).json();
    expect(await read("alice")).toEqual(["alice's"]);
    expect(await read("bob")).toEqual(["bob's"]);
    expect(await read()).toEqual([]);
  });

  it("reach internal procedures, which clients cannot", async () => {
    const response = await call("/runs");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ count: expect.any(Number) });
    const rpc = await exports.default.fetch(`${BASE}/_svc/rpc`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ path: "jobs:countRuns" }),
    });
    expect(rpc.status).toBe(404);
  });

  it("answer 405 with Allow on a routed path, and leave other paths to fetch", async () => {
    const wrongMethod = await call("/me", { method: "PUT" });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("GET");
    const other = await call("/not-routed");
    expect(await other.text()).toBe("app route");
  });

  it("answer CORS preflights for allowed origins, keeping the default headers", async () => {
    const preflight = await call("/notes", {
      method: "OPTIONS",
      headers: {
        origin: "https://app.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type, x-custom",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(preflight.headers.get("access-control-allow-methods")).toBe("POST, OPTIONS");
    expect(preflight.headers.get("access-control-allow-headers")).toBe(
      "content-type, authorization, x-svc-shard-key, x-custom",
    );
    expect(preflight.headers.get("access-control-allow-credentials")).toBe("true");
    expect(preflight.headers.get("vary")).toBe("Origin");

    const refused = await call("/notes", {
      method: "OPTIONS",
      headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("access-control-allow-origin")).toBeNull();

    const actual = await call("/hello/x", { headers: { origin: "https://app.example" } });
    expect(actual.headers.get("access-control-allow-origin")).toBe("https://app.example");
    const foreign = await call("/hello/x", { headers: { origin: "https://evil.example" } });
    expect(foreign.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("refuse cookie-carrying writes from sites CORS does not trust", async () => {
    const response = await call("/notes", {
      method: "POST",
      headers: {
        cookie: "session=x",
        origin: "https://evil.example",
        "sec-fetch-site": "cross-site",
        "content-type": "application/json",
      },
      body: JSON.stringify({ text: "csrf" }),
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: "FORBIDDEN" });
  });

  it("stream a response body as it is written", async () => {
    const response = await call("/stream");
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    const first = decoder.decode((await reader.read()).value);
    expect(first).toBe("tick 0\n");
    let rest = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest += decoder.decode(value);
    }
    expect(rest).toBe("tick 1\ntick 2\n");
  });

  it("match a final * against the rest of the path", async () => {
    const response = await call("/files/a/b%20c.txt");
    expect(await response.json()).toEqual({ path: "a/b c.txt" });
  });

  it("answer a crash as a 500 problem without internals", async () => {
    const response = await call("/broken");
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ code: "INTERNAL" });
    expect(text).not.toContain("/srv/app.ts");
  });

  it("refuse routes under /_svc/ when they are declared", () => {
    const action = httpAction.handler(() => new Response("x"));
    expect(() => httpRouter().get("/_svc/rpc", action)).toThrow(/reserves/);
    expect(() => httpRouter().get("/_svc", action)).toThrow(/reserves/);
    expect(() => httpRouter().get("/a/:id", action).get("/a/:key", action)).toThrow(/routed twice/);
  });

  it("put routes with validators into the OpenAPI document", () => {
    const { openapi, http } = describeApp(
      { http: { default: entryPoints.http }, jobs: { ...jobs } },
      {},
    );
    expect(http?.map((route) => `${route.method} ${route.pattern}`)).toContain("POST /notes");
    const post = openapi.paths["/notes"]?.post as Record<string, unknown>;
    expect(post).toMatchObject({
      operationId: "postNotes",
      summary: "Add a note",
      tags: ["http"],
      requestBody: { content: { "application/json": { schema: { type: "object" } } } },
    });
    // Routes without validators answer any Response and stay out of the document.
    expect(openapi.paths["/me"]).toBeUndefined();
  });
});
