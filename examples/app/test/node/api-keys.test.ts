import { createHash } from "node:crypto";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { createClient } from "@svc/client";
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../../svc/_generated/api.ts";
import { appForThisFile, signUpForToken } from "./harness.ts";
import { openLocalD1 } from "./state-db.ts";

/**
 * API keys (issue 31, item 4) over real HTTP against the example app under
 * `wrangler dev` (workerd, local D1, better-auth, the rate limiter's Durable
 * Object): created by the admin API, used by REST, RPC and a live-query
 * socket, refused out of scope (403), revoked or expired (401) and over
 * their per-key limit (429), stored only as a hash, and audited.
 */

const ADMIN_TOKEN = "api-key-example-admin-token-0123456789abcdef";
// Each key a bucket of 10 calls (token bucket: half the per-minute rate), so the limit shows soon.
const app = appForThisFile({
  vars: { SVC_ADMIN_TOKEN: ADMIN_TOKEN, API_KEY_RATE_PER_MINUTE: "20" },
});

interface Created {
  apiKey: { id: string; prefix: string; revokedAt: string | null };
  key: string;
}

const admin = (method: string, path: string, body?: unknown) =>
  fetch(`${app.url}/_svc/admin/auth/${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

async function createKey(body: Record<string, unknown>): Promise<Created> {
  const response = await admin("POST", "api-keys", { ownerUserId: annId, ...body });
  const text = await response.text();
  expect(response.status, text).toBe(201);
  return JSON.parse(text) as Created;
}

const rest = (path: string, key: string, init: RequestInit = {}) =>
  fetch(`${app.url}/_svc/rest/${path}`, {
    ...init,
    headers: { "x-api-key": key, "content-type": "application/json" },
  });

/** Calls with `key` until it is refused (at most 5 s: another isolate may hold it for a second). */
async function statusOnceRefused(key: string): Promise<number> {
  const deadline = Date.now() + 5_000;
  let status = 200;
  while (status === 200 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    status = (await rest("messages/list", key)).status;
  }
  return status;
}

/** Every SQLite file wrangler dev keeps for the app: D1's and the Durable Objects'. */
async function sqliteFilesUnder(stateDir: string): Promise<string[]> {
  const root = path.join(stateDir, "v3");
  const entries = await readdir(root, { recursive: true });
  return entries
    .filter((entry) => entry.endsWith(".sqlite") && !entry.includes("metadata"))
    .map((entry) => path.join(root, entry));
}

/** Rows as text, blobs (a Durable Object's stored values) read as bytes. */
const asText = (rows: unknown): string =>
  JSON.stringify(rows, (_, value: unknown) =>
    typeof value === "bigint"
      ? String(value)
      : value instanceof Uint8Array
        ? Buffer.from(value).toString("latin1")
        : value,
  );

let annId: string;
beforeAll(async () => {
  const token = await signUpForToken(app, `key-owner-${crypto.randomUUID()}@example.com`);
  const session = await fetch(`${app.url}/api/auth/get-session`, {
    headers: { authorization: `Bearer ${token}` },
  });
  annId = ((await session.json()) as { user: { id: string } }).user.id;
});

describe("API keys over real HTTP", () => {
  it("are shown once, stored as a hash only, and call REST, RPC and sockets as their owner", async () => {
    const { apiKey, key } = await createKey({ name: "CI", scopes: ["messages"] });
    expect(key).toMatch(/^svc_/);

    const sent = await rest("messages/send", key, {
      method: "POST",
      body: JSON.stringify({ body: "from a key", channel: "keys" }),
    });
    expect(sent.status).toBe(200);
    const listed = await rest("messages/list?channel=keys", key);
    expect(((await listed.json()) as { author: string }[])[0]?.author).toBe(annId);

    // The typed client sends the key as a bearer token: RPC in the header, the socket in its subprotocol.
    const client = createClient({ url: app.url, bearer: key });
    expect(await client.query(api.messages.list, { channel: "keys" })).toHaveLength(1);
    let stop = () => {};
    const live = await new Promise<unknown[]>((resolve, reject) => {
      stop = client.subscribe(api.messages.list, { channel: "keys" }, resolve, {
        onError: reject,
      });
    });
    expect(live).toHaveLength(1);

    // After the calls (its lastUsedAt and its audit entry written), with the socket still open
    // (the shard keeps an open socket's grant in its storage): no row of any table of any
    // database the app keeps (D1, the shards' and the limiter's storage) holds the key's secret part.
    const files = await sqliteFilesUnder(app.stateDir);
    expect(files.some((file) => file.includes(`${path.sep}d1${path.sep}`))).toBe(true);
    for (const file of files) {
      const db = new DatabaseSync(file, { readOnly: true });
      try {
        for (const { name } of db
          .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
          .all() as { name: string }[]) {
          const select = db.prepare(`SELECT * FROM "${name.replaceAll('"', '""')}"`);
          select.setReadBigInts(true);
          expect(asText(select.all()), `${file}: ${name}`).not.toContain(key.slice(12));
        }
      } finally {
        db.close();
      }
    }
    const db = await openLocalD1(app.stateDir);
    try {
      const row = db
        .prepare('SELECT "keyHash", "prefix", "lastUsedAt" FROM "svcApiKey" WHERE id = ?')
        .get(apiKey.id) as { keyHash: string; prefix: string; lastUsedAt: unknown };
      expect(row.keyHash).toBe(createHash("sha256").update(key).digest("hex"));
      expect(row.prefix).toBe(key.slice(0, 12));
      expect(row.lastUsedAt).not.toBeNull();
    } finally {
      db.close();
      stop();
    }
  });

  it("answer 403 outside their scopes, over REST, RPC and on a socket", async () => {
    const { key } = await createKey({ name: "reader", scopes: ["messages.readonly"] });
    const write = await rest("messages/send", key, {
      method: "POST",
      body: JSON.stringify({ body: "nope" }),
    });
    expect(write.status).toBe(403);
    expect(await write.json()).toMatchObject({ code: "FORBIDDEN" });
    const client = createClient({ url: app.url, bearer: key });
    await expect(client.mutation(api.messages.send, { body: "nope" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    let stop = () => {};
    const refused = await new Promise<unknown>((resolve) => {
      stop = client.subscribe(api.account.whoami, {}, () => resolve("a value"), {
        onError: resolve,
      });
    });
    stop();
    expect(refused).toMatchObject({ code: "FORBIDDEN" });
  });

  it("answer 401 once revoked or expired; both are audited", async () => {
    const revoked = await createKey({ name: "leaked", scopes: ["*"] });
    expect((await rest("messages/list", revoked.key)).status).toBe(200);
    const answer = (await (await admin("DELETE", `api-keys/${revoked.apiKey.id}`)).json()) as {
      apiKey: { revokedAt: string | null };
    };
    expect(answer.apiKey.revokedAt).not.toBeNull();
    expect(await statusOnceRefused(revoked.key)).toBe(401);

    const expiring = await createKey({ name: "short", scopes: ["*"], expiresInSeconds: 1 });
    expect(await statusOnceRefused(expiring.key)).toBe(401);

    const trail = (await (await admin("GET", `audit?target=${revoked.apiKey.id}`)).json()) as {
      entries: { action: string; operator: string; outcome: string }[];
    };
    expect(trail.entries.map((entry) => entry.action)).toEqual([
      "api-key.revoke",
      "api-key.create",
    ]);
    expect(
      trail.entries.every((entry) => entry.operator === "admin" && entry.outcome === "ok"),
    ).toBe(true);
  });

  it("answer 429 with Retry-After and RateLimit headers past the key's own limit", async () => {
    const { key } = await createKey({ name: "busy", scopes: ["messages.readonly"] });
    const statuses: number[] = [];
    let limited: Response | undefined;
    for (let i = 0; i < 12 && limited === undefined; i++) {
      const response = await rest("messages/list", key);
      statuses.push(response.status);
      if (response.status === 429) limited = response;
      else await response.body?.cancel();
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(limited?.status).toBe(429);
    expect(Number(limited?.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(limited?.headers.get("ratelimit-remaining")).toBe("0");
    expect(await limited?.json()).toMatchObject({ code: "RATE_LIMITED" });
  });
});
