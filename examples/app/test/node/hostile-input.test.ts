import { beforeAll, describe, expect, it } from "vitest";
import { appForThisFile } from "./harness.ts";

/**
 * Issue 14 findings 5, 6 and 7 driven through real HTTP against the example
 * app: inputs that answered 500, shard keys anyone could name, and a public
 * notice feed that leaked user ids and carried callers' text.
 */

const app = appForThisFile();
let bearer: string;

beforeAll(async () => {
  const signUp = await fetch(`${app.url}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: app.url },
    body: JSON.stringify({ email: "probe@example.com", password: "a long password", name: "P" }),
  });
  expect(signUp.status).toBe(200);
  bearer = signUp.headers.get("set-auth-token") ?? "";
}, 90_000);

function rpc(
  path: string,
  args: unknown,
  options: { shardKey?: string; anonymous?: boolean } = {},
) {
  const query = options.shardKey ? `?shardKey=${encodeURIComponent(options.shardKey)}` : "";
  return fetch(`${app.url}/_svc/rpc${query}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(options.anonymous ? {} : { authorization: `Bearer ${bearer}` }),
    },
    body: JSON.stringify({ path, args }),
  });
}

async function value<T>(response: Response): Promise<T> {
  const body = (await response.json()) as { value: T };
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body.value;
}

describe("finding 5: no 5xx from client input", () => {
  it('pages messages in channel "日本" and follows the cursor', async () => {
    for (const body of ["a", "b", "c"]) {
      await value(await rpc("messages:send", { body, channel: "日本" }));
    }
    type Page = { page: { body: string }[]; isDone: boolean; continueCursor: string };
    const first = await value<Page>(
      await rpc("messages:page", { channel: "日本", cursor: null, numItems: 2 }),
    );
    expect(first.page.map((m) => m.body)).toEqual(["a", "b"]);
    const rest = await value<Page>(
      await rpc("messages:page", { channel: "日本", cursor: first.continueCursor, numItems: 2 }),
    );
    expect(rest).toMatchObject({ page: [{ body: "c" }], isDone: true });
  });

  it("answers GET /_svc/rest/messages/list?limit=1.5 with 400", async () => {
    const response = await fetch(`${app.url}/_svc/rest/messages/list?limit=1.5`, {
      headers: { authorization: `Bearer ${bearer}` },
    });
    expect(response.status).toBe(400);
    // Refused by `limit`'s validator (an integer), as its OpenAPI schema says, not by the handler.
    expect(await response.json()).toMatchObject({ code: "VALIDATION_FAILED" });
  });

  it("answers 90,000 unknown fields with a small 400 that counts the rest", async () => {
    const args: Record<string, unknown> = { body: "x" };
    for (let i = 0; i < 90_000; i++) args[`f${i}`] = 1;
    const response = await rpc("messages:send", args);
    const text = await response.text();
    expect(response.status).toBe(400);
    expect(text.length).toBeLessThan(8_000);
    expect(JSON.parse(text)).toMatchObject({
      code: "VALIDATION_FAILED",
      data: { omittedIssues: 89_950 },
    });
  });
});

describe("finding 6: shards are refused before they exist", () => {
  const snapshot = async (response: Response) => ({
    status: response.status,
    headers: [...response.headers].filter(([name]) => name !== "date").sort(),
    body: await response.text(),
  });

  it("answers a refused key exactly like an unknown procedure", async () => {
    expect((await rpc("messages:list", {}, { shardKey: "room-lobby" })).status).toBe(200);
    const unknown = await snapshot(await rpc("messages:nope", {}, { shardKey: "anything" }));
    for (const [shardKey, anonymous] of [
      ["tenant-42", false],
      ["room-lobby", true],
      ["user-someone-else", false],
    ] as const) {
      const refused = await snapshot(await rpc("messages:list", {}, { shardKey, anonymous }));
      expect(refused, shardKey).toEqual(unknown);
    }
  });

  it("answers a refused REST call exactly like an unknown route", async () => {
    const get = (path: string) => fetch(`${app.url}${path}`);
    const refused = await snapshot(await get("/_svc/rest/hello/ping?name=a&shardKey=tenant-1"));
    const unknown = await snapshot(await get("/_svc/rest/hello/nope?name=a&shardKey=tenant-1"));
    expect(refused.status).toBe(404);
    expect(refused).toEqual(unknown);
  });
});

describe("finding 7: the public notice feed", () => {
  it("carries fixed texts only: no user ids, no channels, no caller text", async () => {
    await value(await rpc("messages:send", { body: "hi", channel: "send your password to x" }));
    const notices = await value<{ text: string }[]>(
      await rpc("messages:notices", {}, { anonymous: true }),
    );
    expect(notices.length).toBeGreaterThan(0);
    const me = await value<{ userId: string }>(await rpc("account:whoami", {}));
    for (const notice of notices) {
      expect(notice.text).toBe("A new message was posted.");
      expect(JSON.stringify(notice)).not.toContain(me.userId);
    }
  });
});
