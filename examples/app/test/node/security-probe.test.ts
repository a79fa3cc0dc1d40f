import { randomUUID } from "node:crypto";
import type { Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appForThisFile, signUpForToken } from "./harness.ts";
import { rawUpgrade } from "./raw-http.ts";

/**
 * Issue 26, the server's findings, driven as the probe drove them: through
 * real HTTP and real WebSockets against the example app under `wrangler dev`.
 * RPC is limited to 10 at once here (20 per minute) so its gate shows
 * quickly; each probe comes from an address of its own (the app keys its
 * limits on `cf-connecting-ip`, which `wrangler dev` passes through).
 */

const app = appForThisFile({ vars: { RPC_RATE_PER_MINUTE: "20" } });
let ann: string;
let bob: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  ann = await signUpForToken(app, "probe-ann@example.com");
  bob = await signUpForToken(app, "probe-bob@example.com");
}, 90_000);

afterAll(() => {
  for (const socket of sockets) socket.destroy();
});

/**
 * A fresh address (IPv6 documentation range) in a /64 of its own, so no
 * earlier call shares its buckets (per-address limits count a /64 as one).
 */
const freshAddress = () => `2001:db8:${randomUUID().slice(0, 4)}:${randomUUID().slice(0, 4)}::1`;

function rpc(path: string, args: unknown, bearer: string, address = freshAddress()) {
  return fetch(`${app.url}/_svc/rpc`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${bearer}`,
      "cf-connecting-ip": address,
    },
    body: JSON.stringify({ path, args }),
  });
}

/** Status, every header but `date`, and the body: what a prober can compare. */
async function observable(response: Response) {
  const headers = [...response.headers].filter(([name]) => name !== "date");
  return { status: response.status, headers, body: await response.text() };
}

describe("finding 5: a write to a hidden document answers like a missing one", () => {
  it("bob deleting ann's message gets the bytes a random id gets", async () => {
    const sent = await rpc("messages:send", { body: "ann's secret" }, ann);
    const { value: id } = (await sent.json()) as { value: string };
    const hidden = await observable(await rpc("messages:remove", { id }, bob));
    const missing = await observable(
      await rpc("messages:remove", { id: `messages_${"0".repeat(26)}` }, bob),
    );
    expect(hidden.status).toBe(404);
    expect(JSON.parse(hidden.body)).toMatchObject({ code: "NOT_FOUND" });
    expect(hidden).toEqual(missing);
    // Nothing changed: ann still has it.
    const list = await rpc("messages:list", {}, ann);
    expect(((await list.json()) as { value: { _id: string }[] }).value.map((m) => m._id)).toContain(
      id,
    );
  });
});

/** A WebSocket upgrade over raw HTTP: 101 (the socket is kept open until the file ends) or the refusal. */
async function upgrade(headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const { socket, ...answer } = await rawUpgrade(app.url, headers);
  if (socket) sockets.push(socket);
  return answer;
}

describe("finding 6: WebSockets are bounded", () => {
  it("closes a socket flooding malformed frames with 4029", async () => {
    const ws = new WebSocket(`${app.url.replace("http", "ws")}/_svc/ws`, "svc.v1");
    const errors: string[] = [];
    ws.addEventListener("message", (event) => errors.push(String(event.data)));
    await new Promise((resolve, reject) => {
      ws.addEventListener("open", resolve);
      ws.addEventListener("error", reject);
    });
    const closed = new Promise<CloseEvent>((resolve) => ws.addEventListener("close", resolve));
    for (let i = 0; i < 1000; i++) ws.send("not json");
    const { code, reason } = await closed;
    expect(code).toBe(4029);
    expect(reason).toMatch(/too many frames/);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.length).toBeLessThan(300);
  });

  it("refuses one address's 61st socket with 429", async () => {
    const address = freshAddress();
    const opened = [];
    for (let i = 0; i < 60; i++) opened.push(await upgrade({ "cf-connecting-ip": address }));
    expect(opened.every(({ status }) => status === 101)).toBe(true);
    const refused = await upgrade({ "cf-connecting-ip": address });
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toMatchObject({ code: "RATE_LIMITED" });
    expect((await upgrade({ "cf-connecting-ip": freshAddress() })).status).toBe(101);
  });

  it("refuses one user's 21st socket whatever the address", async () => {
    const asBob = () => ({ "cf-connecting-ip": freshAddress(), authorization: `Bearer ${bob}` });
    for (let i = 0; i < 20; i++) expect((await upgrade(asBob())).status).toBe(101);
    const refused = await upgrade(asBob());
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toMatchObject({ code: "RATE_LIMITED" });
    const asAnn = { "cf-connecting-ip": freshAddress(), authorization: `Bearer ${ann}` };
    expect((await upgrade(asAnn)).status).toBe(101);
  });
});

describe("finding 7: shard keys the document calls invalid are the ones refused", () => {
  it("refuses a%01b with 400; 129 emoji reach the shard-access hook (404 here)", async () => {
    const control = await fetch(`${app.url}/_svc/rest/hello/ping?shardKey=a%01b`);
    expect(control.status).toBe(400);
    const emoji = await fetch(
      `${app.url}/_svc/rest/hello/ping?shardKey=${encodeURIComponent("😀".repeat(129))}`,
    );
    // A valid key the app's shardAccess does not open: the unknown-route answer, not a 400.
    expect(emoji.status).toBe(404);
  });
});

describe("finding 8: RPC has a rate limit of its own", () => {
  it("answers RateLimit headers, then 429 with Retry-After, per address", async () => {
    const address = freshAddress();
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 11; i++) {
      last = await rpc("messages:list", {}, ann, address);
      statuses.push(last.status);
      if (i === 0) expect(last.headers.get("ratelimit-limit")).toBe("10");
    }
    expect(statuses).toEqual([...Array(10).fill(200), 429]);
    expect(Number(last?.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await last?.json()).toMatchObject({ code: "RATE_LIMITED" });
    expect((await rpc("messages:list", {}, ann)).status).toBe(200);
  });
});
