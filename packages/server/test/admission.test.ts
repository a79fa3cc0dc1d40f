import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

/**
 * svc's one admission order (issue 31), checked over every door that names
 * a shard: cross-site check, shard key, request gates, identity, reach (an
 * unknown target and a refused shard alike), caller gates. Each row sends a
 * request two steps could refuse and expects the earlier step's answer.
 */

type Door = (options: { path?: string; shardKey?: string; headers?: HeadersInit }) => Request;

const BASE = "http://svc.test";
const query = (shardKey: string | undefined) =>
  shardKey === undefined ? "" : `?shardKey=${encodeURIComponent(shardKey)}`;

const doors: Record<"rpc" | "rest" | "ws", Door> = {
  rpc: ({ path = "messages:list", shardKey, headers }) =>
    new Request(`${BASE}/_svc/rpc${query(shardKey)}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...Object.fromEntries(new Headers(headers)) },
      body: JSON.stringify({ path, args: {} }),
    }),
  rest: ({ path = "messages:list", shardKey, headers }) =>
    new Request(`${BASE}/_svc/rest/${path.replace(":", "/")}${query(shardKey)}`, { headers }),
  ws: ({ shardKey, headers }) =>
    new Request(`${BASE}/_svc/ws${query(shardKey)}`, {
      headers: {
        upgrade: "websocket",
        "sec-websocket-protocol": "svc.v1",
        ...Object.fromEntries(new Headers(headers)),
      },
    }),
};

const send = (request: Request) => exports.default.fetch(request);

async function observable(response: Response) {
  return {
    status: response.status,
    headers: [...response.headers].sort(),
    body: await response.text(),
  };
}

describe.each(Object.entries(doors))("admission over %s", (_name, door) => {
  it("refuses cross-site cookies before it reads the shard key", async () => {
    const crossSite = { cookie: "s=1", "sec-fetch-site": "cross-site" };
    const response = await send(door({ shardKey: "", headers: crossSite }));
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: "FORBIDDEN" });
  });

  it("refuses a malformed shard key before it looks at the target or the caller", async () => {
    const response = await send(door({ path: "messages:noSuchThing", shardKey: "" }));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "BAD_REQUEST" });
  });

  it("answers a refused shard as it answers a target that names nothing, byte for byte", async () => {
    const bob = { "x-test-user": "bob" };
    const refused = await observable(await send(door({ shardKey: "private-ann", headers: bob })));
    expect(refused.status).toBe(404);
    if (door === doors.ws) return; // a socket names no procedure: `*` always resolves
    const unknown = await observable(
      await send(door({ path: "messages:noSuchThing", shardKey: "private-bob", headers: bob })),
    );
    expect(unknown).toEqual(refused);
  });
});

describe("admission over HTTP actions", () => {
  it("refuses cookie writes from an origin CORS does not trust, before arguments", async () => {
    const response = await send(
      new Request(`${BASE}/notes`, {
        method: "POST",
        headers: { cookie: "s=1", origin: "https://evil.example" },
        body: "{not json",
      }),
    );
    expect(response.status).toBe(403);
  });

  it("admits the same write from the origin CORS trusts with credentials", async () => {
    const response = await send(
      new Request(`${BASE}/notes`, {
        method: "POST",
        headers: {
          cookie: "s=1",
          origin: "https://app.example",
          "content-type": "application/json",
          "x-test-user": "ann",
        },
        body: JSON.stringify({ text: "from the app", shard: "admission-http" }),
      }),
    );
    expect(response.status).toBe(201);
  });
});
