import { describe, expect, it } from "vitest";
import { appForThisFile, signUpForToken } from "./harness.ts";

/**
 * Issue 53's interop findings over real HTTP against the example app under
 * `wrangler dev`: what a plain HTTP client sends must work.
 */

const ADMIN_TOKEN = "security-interop-admin-token-0123456789ab";
// A short registry interval: the data studio serves only shards the registry lists.
const app = appForThisFile({
  vars: { SVC_ADMIN_TOKEN: ADMIN_TOKEN, REGISTRY_INTERVAL_MS: "200" },
});

async function createOwnKey(token: string): Promise<{ id: string; key: string }> {
  const response = await fetch(`${app.url}/api/auth/api-keys`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      origin: app.url,
    },
    body: JSON.stringify({ name: "laptop", scopes: ["*"] }),
  });
  const text = await response.text();
  expect(response.status, text).toBe(201);
  const { apiKey, key } = JSON.parse(text) as { apiKey: { id: string }; key: string };
  return { id: apiKey.id, key };
}

const restStatus = async (key: string) =>
  (await fetch(`${app.url}/_svc/rest/messages/list`, { headers: { "x-api-key": key } })).status;

/** Calls with `key` until it is refused (the key cache holds a row for a second), at most 3 s. */
async function statusOnceRefused(key: string): Promise<number> {
  const deadline = Date.now() + 3_000;
  let status = await restStatus(key);
  while (status === 200 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    status = await restStatus(key);
  }
  return status;
}

describe("point 11: plain HTTP clients", () => {
  it("revoke their own key with a DELETE that has no body, or an empty one", async () => {
    const token = await signUpForToken(app, "interop-delete@example.com");
    const variants: Record<string, string>[] = [
      {},
      { "content-type": "application/json" },
      { "content-length": "0" },
    ];
    for (const extra of variants) {
      const { id, key } = await createOwnKey(token);
      expect(await restStatus(key)).toBe(200);
      const revoked = await fetch(`${app.url}/api/auth/api-keys/${id}`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${token}`, origin: app.url, ...extra },
      });
      const text = await revoked.text();
      expect(revoked.status, `${JSON.stringify(extra)}: ${text}`).toBe(200);
      expect(JSON.parse(text)).toMatchObject({ apiKey: { id, revokedAt: expect.any(String) } });
      expect(await statusOnceRefused(key)).toBe(401);
    }
  });

  it("reach the admin API with a lower-case bearer scheme", async () => {
    for (const scheme of ["Bearer", "bearer", "BEARER"]) {
      const response = await fetch(`${app.url}/_svc/admin/auth/users?limit=1`, {
        headers: { authorization: `${scheme} ${ADMIN_TOKEN}` },
      });
      expect(response.status, scheme).toBe(200);
    }
    const wrong = await fetch(`${app.url}/_svc/admin/auth/users?limit=1`, {
      headers: { authorization: `bearer ${ADMIN_TOKEN}x` },
    });
    expect(wrong.status).toBe(401);
  });
});

describe("point 9: maxKeysPerOwner under a race", () => {
  it("leaves at most 25 keys in force after 30 parallel creates", async () => {
    const token = await signUpForToken(app, "interop-race@example.com");
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        fetch(`${app.url}/api/auth/api-keys`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${token}`,
            "content-type": "application/json",
            origin: app.url,
          },
          body: JSON.stringify({ name: `race-${index}`, scopes: ["*"] }),
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(25);
    expect(statuses.filter((status) => status === 403)).toHaveLength(5);
    const listed = await fetch(`${app.url}/api/auth/api-keys`, {
      headers: { authorization: `Bearer ${token}`, origin: app.url },
    });
    const { apiKeys } = (await listed.json()) as { apiKeys: { id: string }[] };
    expect(apiKeys).toHaveLength(25);
    const trail = await fetch(`${app.url}/_svc/admin/auth/audit?action=api-key.create&limit=100`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const { entries } = (await trail.json()) as { entries: { targetId: string }[] };
    const ids = new Set(apiKeys.map((key) => key.id));
    // Each created key has its record; a refused create left none.
    expect(entries.filter((entry) => ids.has(entry.targetId))).toHaveLength(25);
    expect(entries.filter((entry) => entry.targetId === "")).toHaveLength(0);
  });
});

describe("point 12: the data studio acting as a user", () => {
  const admin = (method: string, path: string, body?: unknown) =>
    fetch(`${app.url}/_svc/admin/${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  it("refuses an empty asUser, and a banned user unless the operator confirms", async () => {
    const token = await signUpForToken(app, "interop-banned@example.com");
    const sent = await fetch(`${app.url}/_svc/rpc`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ path: "messages:send", args: { body: "before the ban" } }),
    });
    expect(sent.status).toBe(200);
    const session = await fetch(`${app.url}/api/auth/get-session`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const userId = ((await session.json()) as { user: { id: string } }).user.id;
    const documents = "data/shards/default/tables/messages/documents";
    const deadline = Date.now() + 10_000;
    while ((await admin("GET", documents)).status !== 200 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 200));

    const empty = await admin("GET", `${documents}?asUser=`);
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ code: "VALIDATION_FAILED" });
    expect((await admin("GET", `${documents}?asUser=${userId}`)).status).toBe(200);

    expect((await admin("POST", `auth/users/${userId}/ban`, { reason: "spam" })).status).toBe(200);
    const refused = await admin("GET", `${documents}?asUser=${userId}`);
    expect(refused.status).toBe(403);
    const problem = (await refused.json()) as { code: string; detail: string };
    expect(problem.code).toBe("FORBIDDEN");
    expect(problem.detail).toContain(`User ${userId} is banned`);
    const confirmed = await admin("GET", `${documents}?asUser=${userId}&confirmBanned=true`);
    expect(confirmed.status).toBe(200);
    const page = (await confirmed.json()) as { documents: { body: string }[] };
    expect(page.documents.map((document) => document.body)).toEqual(["before the ban"]);

    const run = (confirmBanned?: boolean) =>
      admin("POST", "data/shards/default/run", {
        path: "messages:send",
        args: { body: "as the banned user" },
        as: { kind: "user", userId },
        ...(confirmBanned === undefined ? {} : { confirmBanned }),
      });
    const runRefused = await run();
    expect(runRefused.status).toBe(403);
    expect(((await runRefused.json()) as { detail: string }).detail).toContain("banned");
    const runConfirmed = await run(true);
    expect(runConfirmed.status).toBe(200);
    expect(await runConfirmed.json()).toMatchObject({ outcome: { ok: true } });
  });
});
