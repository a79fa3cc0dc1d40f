import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { openApiSpec } from "./fixture/openapi.ts";
import { rpc } from "./rpc.ts";
import { spans } from "./telemetry-recorder.ts";

const BASE = "http://svc.test";
const call = (path: string, init?: RequestInit & { user?: string }) => {
  const headers = new Headers(init?.headers);
  if (init?.user) headers.set("x-test-user", init.user);
  return exports.default.fetch(`${BASE}${path}`, { ...init, headers });
};
const postJson = (path: string, body: unknown, user?: string) =>
  call(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    ...(user ? { user } : {}),
  });

describe("REST arguments", () => {
  it("parses GET values as JSON when they are valid JSON, else keeps the string", async () => {
    const response = await call("/_svc/rest/rest/inspect?name=123&flag=true&list=[1,2]");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toMatchObject({
      args: { name: 123, flag: true, list: [1, 2] },
      types: { name: "number", flag: "boolean", list: "array" },
      transport: "rest",
    });
    const text = await (await call("/_svc/rest/rest/inspect?name=abc")).json();
    expect(text).toMatchObject({ args: { name: "abc" }, types: { name: "string" } });
  });

  it("checks v.* bounds on GET as on POST: a text argument keeps its text", async () => {
    const ok = await call(`/_svc/rest/rest/bounded?name=${encodeURIComponent("😀😀😀")}&count=3`);
    expect(await ok.json()).toEqual({ name: "😀😀😀", count: 3 });
    // "1" parses as a number, but a string argument takes the text: refused for its length.
    const short = await call("/_svc/rest/rest/bounded?name=1&count=0");
    expect(short.status).toBe(400);
    expect(await short.json()).toMatchObject({
      code: "VALIDATION_FAILED",
      errors: [
        { path: "args.name", message: "expected at least 2 characters, got 1" },
        { path: "args.count", message: "expected at least 1" },
      ],
    });
    const digits = await call("/_svc/rest/rest/bounded?name=12345");
    expect(await digits.json()).toEqual({ name: "12345" });
  });

  it("passes a JSON-looking string verbatim over POST", async () => {
    const body = await (await postJson("/_svc/rest/rest/inspect", { name: "123" })).json();
    expect(body).toMatchObject({ args: { name: "123" }, types: { name: "string" } });
  });

  it("accepts an empty POST for a procedure without arguments", async () => {
    const response = await call("/_svc/rest/rest/noArgs", { method: "POST" });
    expect(response.status).toBe(200);
    expect(await response.json()).toBe("done");
  });

  it("routes by shardKey (query wins over header) and never passes it to the handler", async () => {
    const body = (await (
      await call("/_svc/rest/rest/inspect?shardKey=from-query&name=x", {
        headers: { "x-svc-shard-key": "from-header" },
      })
    ).json()) as { args: object; shard: string };
    expect(body.shard).toBe("from-query");
    expect(body.args).toEqual({ name: "x" });
    const viaHeader = (await (
      await call("/_svc/rest/rest/inspect", { headers: { "x-svc-shard-key": "from-header" } })
    ).json()) as {
      shard: string;
    };
    expect(viaHeader.shard).toBe("from-header");
    const byDefault = (await (await call("/_svc/rest/rest/inspect")).json()) as { shard: string };
    expect(byDefault.shard).toBe("default");
  });

  it("answers an action's declared output", async () => {
    const response = await postJson("/_svc/rest/rest/doubled", { n: 21 });
    expect(await response.json()).toEqual({ result: 42 });
  });
});

describe("REST runs the same dispatch as RPC", () => {
  it("resolves the identity and applies RLS exactly as RPC does", async () => {
    const shard = "?shardKey=rest-parity-rls";
    await postJson(`/_svc/rest/messages/send${shard}`, { body: "ann's" }, "ann");
    await postJson(`/_svc/rest/messages/send${shard}`, { body: "bob's" }, "bob");
    for (const user of ["ann", "bob", undefined]) {
      const viaRest = await (
        await call(`/_svc/rest/messages/list${shard}`, user ? { user } : {})
      ).json();
      const viaRpc = (
        (await (
          await rpc("messages:list", {}, { shardKey: "rest-parity-rls", ...(user ? { user } : {}) })
        ).json()) as { value: unknown }
      ).value;
      expect(viaRest).toEqual(viaRpc);
      expect((viaRest as { author: string }[]).every((m) => m.author === user)).toBe(true);
    }
  });

  it("rejects invalid arguments with the same problem details as RPC", async () => {
    const args = { count: "3", items: [{ name: 1 }], extra: true };
    const viaRest = await postJson("/_svc/rest/rest/strict", args);
    const viaRpc = await rpc("rest:strict", args);
    expect(viaRest.status).toBe(400);
    expect(viaRpc.status).toBe(400);
    const restBody = await viaRest.json();
    expect(restBody).toEqual(await viaRpc.json());
    expect(restBody).toMatchObject({
      code: "VALIDATION_FAILED",
      errors: [
        { path: "args.count", message: "expected number, got string" },
        { path: "args.items[0].name", message: "expected string, got number" },
        { path: "args.extra", message: "unexpected field" },
      ],
    });
  });

  it("refuses a forged write through RLS with FORBIDDEN", async () => {
    const response = await postJson(
      "/_svc/rest/messages/send?shardKey=rest-forge",
      { body: "x", author: "ann" },
      "bob",
    );
    expect(response.status).toBe(403);
  });
});

describe("REST errors", () => {
  it("answers byte-identical 404s for unknown, unexposed, internal and stream procedures", async () => {
    const paths = [
      "/_svc/rest/nope/nothing",
      "/_svc/rest/rest/hiddenQuery",
      "/_svc/rest/rest/secret",
      "/_svc/rest/rest/feed",
      "/_svc/rest/rest/inspect/extra",
      "/_svc/rest/rest%2Finspect",
      "/_svc/rest/",
    ];
    const snapshots = await Promise.all(
      paths.map(async (path) => {
        const response = await call(path, { method: "POST" });
        return {
          status: response.status,
          headers: [...response.headers.entries()],
          body: await response.text(),
        };
      }),
    );
    expect(snapshots[0]?.status).toBe(404);
    for (const snapshot of snapshots) expect(snapshot).toEqual(snapshots[0]);
  });

  it.each([
    ["GET on a mutation", "/_svc/rest/rest/noArgs", "GET", "POST"],
    ["PUT on a query", "/_svc/rest/rest/inspect", "PUT", "GET, POST"],
    ["DELETE on an action", "/_svc/rest/rest/doubled", "DELETE", "POST"],
    ["HEAD on a query", "/_svc/rest/rest/inspect", "HEAD", "GET, POST"],
  ])("%s → 405 with Allow", async (_name, path, method, allow) => {
    const response = await call(path, { method });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe(allow);
  });

  it.each([
    ["duplicate query keys", () => call("/_svc/rest/rest/inspect?name=a&name=b")],
    [
      "a stray query argument on POST",
      () => call("/_svc/rest/rest/doubled?n=2", { method: "POST" }),
    ],
    [
      "a non-JSON content type",
      () =>
        call("/_svc/rest/rest/doubled", {
          method: "POST",
          body: "n=2",
          headers: { "content-type": "text/plain" },
        }),
    ],
    [
      "malformed JSON",
      () =>
        call("/_svc/rest/rest/doubled", {
          method: "POST",
          body: "{",
          headers: { "content-type": "application/json" },
        }),
    ],
    ["a JSON array body", () => postJson("/_svc/rest/rest/doubled", [1])],
    ["an empty shard key", () => call("/_svc/rest/rest/inspect?shardKey=")],
  ])("%s → 400 BAD_REQUEST", async (_name, send) => {
    const response = await send();
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(await response.json()).toMatchObject({ code: "BAD_REQUEST" });
  });
});

describe("the published OpenAPI document matches the routable surface", () => {
  it("serves the document behind the admin token", async () => {
    expect((await call("/_svc/admin/openapi")).status).toBe(401);
    const response = await call("/_svc/admin/openapi", {
      headers: { authorization: "Bearer test-admin-token-0123456789abcdef" },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual(JSON.parse(JSON.stringify(openApiSpec)));
  });

  it("routes every documented operation and nothing else", async () => {
    const documented = new Map(
      Object.entries(openApiSpec.paths).map(([path, item]) => [
        path,
        Object.keys(item).map((m) => m.toUpperCase()),
      ]),
    );
    expect([...documented.keys()].sort()).toEqual([
      "/_svc/rest/articles/search",
      "/_svc/rest/articles/write",
      "/_svc/rest/messages/edit",
      "/_svc/rest/messages/get",
      "/_svc/rest/messages/latest",
      "/_svc/rest/messages/list",
      "/_svc/rest/messages/remove",
      "/_svc/rest/messages/send",
      "/_svc/rest/messages/sendThenFail",
      "/_svc/rest/notes/add",
      "/_svc/rest/notes/all",
      "/_svc/rest/notes/badOutput",
      "/_svc/rest/notes/crash",
      "/_svc/rest/notes/echo",
      "/_svc/rest/notes/many",
      "/_svc/rest/notes/nothing",
      "/_svc/rest/notes/whoami",
      "/_svc/rest/posts/add",
      "/_svc/rest/posts/edit",
      "/_svc/rest/posts/remove",
      "/_svc/rest/rest/bounded",
      "/_svc/rest/rest/doubled",
      "/_svc/rest/rest/inspect",
      "/_svc/rest/rest/noArgs",
      "/_svc/rest/rest/strict",
      "/_svc/rest/rls/listFn",
      "/_svc/rest/rls/listRule",
    ]);
    const { functions } = await import("./fixture/functions.ts");
    for (const path of Object.keys(functions)) {
      const [namespace, name] = path.split(":");
      const restPath = `/_svc/rest/${namespace}/${name}`;
      for (const method of ["GET", "POST"]) {
        const response = await call(restPath, {
          method,
          ...(method === "POST"
            ? { headers: { "content-type": "application/json" }, body: "{}" }
            : {}),
        });
        const methods = documented.get(restPath);
        if (methods === undefined) expect(response.status, `${method} ${restPath}`).toBe(404);
        else if (!methods.includes(method)) {
          expect(response.status).toBe(405);
          expect(response.headers.get("allow")).toBe(methods.join(", "));
        } else expect([404, 405]).not.toContain(response.status);
      }
    }
  });
});

describe("telemetry", () => {
  it("records one span per dispatch with url.path, http.route, method and status, over REST and RPC", async () => {
    spans.reset();
    await call("/_svc/rest/rest/inspect?name=secret-value&shardKey=t");
    await rpc("rest:strict", { count: "bad" });
    const recorded = spans
      .getFinishedSpans()
      .map((span) => ({ name: span.name, attributes: span.attributes }));
    expect(recorded).toEqual([
      {
        name: "svc rest:inspect",
        attributes: {
          "url.path": "/_svc/rest/rest/inspect",
          "http.route": "rest:inspect",
          "http.request.method": "GET",
          "svc.transport": "rest",
          "http.response.status_code": 200,
        },
      },
      {
        name: "svc rest:strict",
        attributes: {
          "url.path": "/_svc/rpc",
          "http.route": "rest:strict",
          "http.request.method": "POST",
          "svc.transport": "rpc",
          "http.response.status_code": 400,
        },
      },
    ]);
    expect(JSON.stringify(recorded)).not.toContain("secret-value");
  });
});
