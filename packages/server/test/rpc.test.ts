import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { rpc, rpcValue } from "./rpc.ts";

const post = (
  body: BodyInit | null,
  headers: Record<string, string> = { "content-type": "application/json" },
) => exports.default.fetch("http://svc.test/_svc/rpc", { method: "POST", headers, body });

describe("RPC transport", () => {
  it("answers { value } for a query", async () => {
    const response = await rpc("notes:echo", { word: "hi" }, { user: "ann" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toEqual({
      value: {
        word: "hi",
        stampedBy: "mw",
        seenArgs: { word: "hi" },
        transport: "rpc",
        shard: "default",
      },
    });
  });

  it("round-trips int64 and bytes in the tagged JSON encoding", async () => {
    const response = await rpc("notes:echo", {
      word: "x",
      big: { $int64: "9007199254740993" },
      bytes: { $bytes: "AQI=" },
    });
    const body = (await response.json()) as { value: Record<string, unknown> };
    expect(body.value.big).toEqual({ $int64: "9007199254740993" });
    expect(body.value.bytes).toEqual({ $bytes: "AQI=" });
  });
});

describe("RPC bad input", () => {
  const cases: [string, () => Promise<Response>, number, string][] = [
    ["malformed JSON", () => post("{"), 400, "BAD_REQUEST"],
    [
      "wrong content type",
      () => post(JSON.stringify({ path: "notes:all" }), { "content-type": "text/plain" }),
      400,
      "BAD_REQUEST",
    ],
    ["body is an array", () => post("[]"), 400, "BAD_REQUEST"],
    ["no path", () => post(JSON.stringify({ args: {} })), 400, "BAD_REQUEST"],
    [
      "non-object args",
      () => post(JSON.stringify({ path: "notes:all", args: [1] })),
      400,
      "BAD_REQUEST",
    ],
    [
      "unknown body field",
      () => post(JSON.stringify({ path: "notes:all", extra: 1 })),
      400,
      "BAD_REQUEST",
    ],
    ["invalid UTF-8", () => post(new Uint8Array([0x7b, 0xff, 0x7d])), 400, "BAD_REQUEST"],
    [
      "oversize body",
      () => post(JSON.stringify({ path: "notes:add", args: { text: "x".repeat(1024 * 1024) } })),
      413,
      "PAYLOAD_TOO_LARGE",
    ],
    ["unknown path", () => rpc("notes:nope", {}), 404, "NOT_FOUND"],
    ["internal path", () => rpc("notes:addInternal", { text: "x" }), 404, "NOT_FOUND"],
    ["wrong types", () => rpc("notes:add", { text: 1 }), 400, "VALIDATION_FAILED"],
    ["extra fields", () => rpc("notes:add", { text: "a", evil: true }), 400, "VALIDATION_FAILED"],
    [
      "empty shard key",
      () => rpc("notes:all", {}, { headers: { "x-svc-shard-key": "" } }),
      400,
      "BAD_REQUEST",
    ],
    [
      "oversize shard key",
      () => rpc("notes:all", {}, { shardKey: "k".repeat(257) }),
      400,
      "BAD_REQUEST",
    ],
    [
      "control char in shard key",
      () => rpc("notes:all", {}, { shardKey: "a\u0001b" }),
      400,
      "BAD_REQUEST",
    ],
  ];

  it.each(cases)("%s → %i %s, and nothing is written", async (_name, send, status, code) => {
    const before = await rpcValue<unknown[]>("notes:all", {});
    const response = await send();
    expect(response.status).toBe(status);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(await response.json()).toMatchObject({ status, code });
    expect(await rpcValue<unknown[]>("notes:all", {})).toEqual(before);
  });

  it("answers 405 with Allow for other methods", async () => {
    const response = await exports.default.fetch("http://svc.test/_svc/rpc");
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
  });
});

describe("routing", () => {
  it("reserves /_svc/* and hands everything else to the app", async () => {
    expect((await exports.default.fetch("http://svc.test/_svc/unknown")).status).toBe(404);
    expect(await (await exports.default.fetch("http://svc.test/hello")).text()).toBe("app route");
  });

  it("gates /_svc/admin/* with the admin token", async () => {
    const response = await exports.default.fetch("http://svc.test/_svc/admin/anything");
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toContain("Bearer");
  });
});
