import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { rpc, rpcValue } from "./rpc.ts";

/**
 * Regression tests for issue 14 finding 5 and 6: client input that used to
 * answer 500, and shard keys anyone could name.
 */

type Page = { page: { body: string }[]; isDone: boolean; continueCursor: string };

const BASE = "http://svc.test";

describe("cursors over any text (finding 5: btoa on UTF-16 answered 500)", () => {
  it("pages through an index value outside Latin-1 and continues from its cursor", async () => {
    const shardKey = "cursor-unicode";
    for (const body of ["one", "two", "three"]) {
      await rpcValue("messages:send", { body, channel: "日本 🎌" }, { user: "ann", shardKey });
    }
    const args = { channel: "日本 🎌", numItems: 2 };
    const first = await rpcValue<Page>(
      "messages:pageInChannel",
      { ...args, cursor: null },
      { user: "ann", shardKey },
    );
    expect(first.page.map((m) => m.body)).toEqual(["one", "two"]);
    expect(first.isDone).toBe(false);
    expect(first.continueCursor).toMatch(/^[A-Za-z0-9_-]+$/);
    const second = await rpcValue<Page>(
      "messages:pageInChannel",
      { ...args, cursor: first.continueCursor },
      { user: "ann", shardKey },
    );
    expect(second.page.map((m) => m.body)).toEqual(["three"]);
    expect(second.isDone).toBe(true);
  });

  it("refuses a cursor that is not base64url of UTF-8 JSON with BAD_REQUEST", async () => {
    for (const cursor of ["%%%", "_w", "WyLml6XmnKwiLDFd".slice(0, 7)]) {
      const response = await rpc(
        "messages:pageInChannel",
        { channel: "x", cursor, numItems: 1 },
        { user: "ann" },
      );
      expect(response.status, cursor).toBe(400);
      expect(await response.json()).toMatchObject({ code: "BAD_REQUEST" });
    }
  });
});

describe("take(n) with a caller's number (finding 5: plain Error answered 500)", () => {
  it.each([1.5, -1, 0.1])("answers 400 over RPC for limit %s", async (limit) => {
    const response = await rpc("messages:latest", { limit }, { user: "ann" });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "BAD_REQUEST" });
  });

  it("answers 400 over REST for ?limit=1.5", async () => {
    const response = await exports.default.fetch(`${BASE}/_svc/rest/messages/latest?limit=1.5`, {
      headers: { "x-test-user": "ann" },
    });
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(await response.json()).toMatchObject({
      code: "BAD_REQUEST",
      detail: "take(n) needs a non-negative integer, got 1.5.",
    });
  });
});

describe("validation answers cap their issue list (finding 5: 4.7 MB errors)", () => {
  it("lists 50 issues of 90,000 unknown fields and says how many were left out", async () => {
    const args: Record<string, unknown> = { body: "x" };
    for (let i = 0; i < 90_000; i++) args[`f${i}`] = 1;
    const response = await rpc("messages:send", args, { user: "ann", shardKey: "cap-issues" });
    const text = await response.text();
    expect(response.status).toBe(400);
    expect(text.length).toBeLessThan(8_000);
    const problem = JSON.parse(text) as { errors: unknown[]; data: unknown; detail: string };
    expect(problem.errors).toHaveLength(50);
    expect(problem.data).toEqual({ omittedIssues: 89_950 });
    expect(problem.detail).toMatch(/\(and 89999 more\)$/);
    expect(await rpcValue("messages:list", {}, { user: "ann", shardKey: "cap-issues" })).toEqual(
      [],
    );
  });
});

describe("shardAccess (finding 6: any caller could name any shard)", () => {
  const rpcIn = (shardKey: string, user?: string, path = "messages:list") =>
    rpc(path, {}, { shardKey, ...(user ? { user } : {}) });

  async function snapshot(response: Response) {
    return {
      status: response.status,
      headers: [...response.headers].sort(),
      body: await response.text(),
    };
  }

  it("lets the owner in and answers others exactly like an unknown procedure (RPC)", async () => {
    expect((await rpcIn("private-ann", "ann")).status).toBe(200);
    const refused = await snapshot(await rpcIn("private-ann", "bob"));
    const anonymous = await snapshot(await rpcIn("private-ann"));
    const unknown = await snapshot(await rpcIn("private-ann", "bob", "messages:noSuchThing"));
    expect(refused.status).toBe(404);
    expect(refused).toEqual(unknown);
    expect(anonymous).toEqual(unknown);
  });

  it("answers a refused REST call exactly like an unknown route", async () => {
    const get = (path: string, user: string) =>
      exports.default.fetch(`${BASE}${path}`, { headers: { "x-test-user": user } });
    expect((await get("/_svc/rest/messages/list?shardKey=private-ann", "ann")).status).toBe(200);
    const refused = await snapshot(
      await get("/_svc/rest/messages/list?shardKey=private-ann", "bob"),
    );
    const unknown = await snapshot(
      await get("/_svc/rest/messages/nothing?shardKey=private-ann", "bob"),
    );
    expect(refused.status).toBe(404);
    expect(refused).toEqual(unknown);
  });

  it("never runs a refused mutation", async () => {
    const send = (user: string) =>
      rpc("messages:send", { body: "sneaky" }, { user, shardKey: "private-ann" });
    expect((await send("bob")).status).toBe(404);
    const everything = await rpcValue(
      "messages:countEverything",
      {},
      { user: "ann", shardKey: "private-ann" },
    );
    expect(everything).toEqual({ visible: 0, all: 0 });
  });
});
