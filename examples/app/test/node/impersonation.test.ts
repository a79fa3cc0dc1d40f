import { beforeAll, describe, expect, it } from "vitest";
import { appForThisFile } from "./harness.ts";
import { openLocalD1 } from "./state-db.ts";

/**
 * Issue 14 findings 1 and 2 through real HTTP against the example app: an
 * impersonation session stays inside the bound the admin API answered, and
 * cannot mint lasting access or reach the user's other sessions.
 */

const ADMIN_TOKEN = "impersonation-test-admin-token-0123456789";
/** The expiry test waits for a real session to end: a short one, allowed by the app's minimum. */
const EXPIRING_SECONDS = 8;
const app = appForThisFile({
  vars: { SVC_ADMIN_TOKEN: ADMIN_TOKEN, IMPERSONATION_MIN_SECONDS: String(EXPIRING_SECONDS) },
});

interface Impersonation {
  token: string;
  sessionId: string;
  userId: string;
  expiresAt: string;
  cookie: string;
}

let userId: string;
let ownToken: string;
/** Started first, with the shortest duration, so it has expired by the last test. */
let expiring: Impersonation;

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${app.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: app.url, ...headers },
    body: JSON.stringify(body),
  });
}

async function admin(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${app.url}/_svc/admin/auth/${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function impersonate(durationSeconds = 600): Promise<Impersonation> {
  const response = await admin("POST", `users/${userId}/impersonate`, {
    durationSeconds,
    reason: "support ticket",
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Impersonation;
}

async function storedExpiry(sessionId: string): Promise<string | undefined> {
  const db = await openLocalD1(app.stateDir);
  try {
    const row = db.prepare("select expiresAt from session where id = ?").get(sessionId) as
      | { expiresAt: string }
      | undefined;
    return row?.expiresAt;
  } finally {
    db.close();
  }
}

async function auditEntries(action: string): Promise<Record<string, unknown>[]> {
  const response = await admin("GET", `audit?action=${action}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { entries: Record<string, unknown>[] }).entries;
}

beforeAll(async () => {
  const signUp = await post("/api/auth/sign-up/email", {
    email: "impersonated@example.com",
    password: "a long password",
    name: "Imp",
  });
  expect(signUp.status).toBe(200);
  ownToken = signUp.headers.get("set-auth-token") ?? "";
  userId = ((await signUp.json()) as { user: { id: string } }).user.id;
  expiring = await impersonate(EXPIRING_SECONDS);
}, 90_000);

describe("finding 1: the session never outlives the answered expiresAt", () => {
  it("keeps the stored expiresAt over REST, RPC, cookie and bearer", async () => {
    const answered = await impersonate(120);
    const before = await storedExpiry(answered.sessionId);
    expect(Date.parse(before ?? "")).toBe(Date.parse(answered.expiresAt));
    const bearer = { authorization: `Bearer ${answered.token}` };
    const cookie = { cookie: answered.cookie };
    for (const [name, credentials] of [
      ["bearer", bearer],
      ["cookie", cookie],
    ] as const) {
      const rest = await fetch(`${app.url}/_svc/rest/account/whoami`, { headers: credentials });
      expect(rest.status, `REST ${name}`).toBe(200);
      const rpc = await post("/_svc/rpc", { path: "account:whoami", args: {} }, credentials);
      expect(rpc.status, `RPC ${name}`).toBe(200);
      const own = await fetch(`${app.url}/api/auth/get-session`, { headers: credentials });
      expect(((await own.json()) as { user: { id: string } }).user.id).toBe(userId);
      expect(await storedExpiry(answered.sessionId), `after ${name}`).toBe(before);
    }
  });
});

describe("finding 2: no lasting access, no other sessions", () => {
  const forbidden: [string, unknown][] = [
    ["/api/auth/list-sessions", undefined],
    ["/api/auth/passkey/generate-register-options", undefined],
    [
      "/api/auth/change-password",
      { currentPassword: "a long password", newPassword: "x".repeat(12) },
    ],
    ["/api/auth/change-email", { newEmail: "taken-over@example.com" }],
    ["/api/auth/two-factor/enable", { password: "a long password" }],
    ["/api/auth/revoke-other-sessions", {}],
    ["/api/auth/revoke-sessions", {}],
    ["/api/auth/delete-user", {}],
    ["/api/auth/update-user", { username: "newhandle" }],
  ];

  it("answers 403 to each credential, session and account change, and audits it", async () => {
    const session = await impersonate();
    const bearer = { authorization: `Bearer ${session.token}` };
    for (const [path, body] of forbidden) {
      const response =
        body === undefined
          ? await fetch(`${app.url}${path}`, { headers: { ...bearer, origin: app.url } })
          : await post(path, body, bearer);
      expect(response.status, path).toBe(403);
      expect(await response.json(), path).toMatchObject({ code: "IMPERSONATION_FORBIDDEN" });
    }
    const refused = (await auditEntries("impersonation.refused")).filter(
      (entry) => entry.targetId === session.sessionId,
    );
    expect(refused.map((entry) => entry.detail).sort()).toEqual(
      forbidden.map(([path]) => `refused ${path.slice("/api/auth".length)}`).sort(),
    );
    expect(refused[0]).toMatchObject({ operator: "admin", userId, outcome: "error" });

    // Nothing changed: the user's own session is alive and can still list its sessions.
    const own = await fetch(`${app.url}/api/auth/list-sessions`, {
      headers: { authorization: `Bearer ${ownToken}` },
    });
    expect(own.status).toBe(200);
    // A name change is not a credential: still allowed.
    expect((await post("/api/auth/update-user", { name: "Imp Two" }, bearer)).status).toBe(200);
  });

  it("ends with better-auth's stop-impersonating (no 500), audited with the operator", async () => {
    const session = await impersonate();
    const bearer = { authorization: `Bearer ${session.token}` };
    const stop = await post("/api/auth/admin/stop-impersonating", {}, bearer);
    expect(stop.status).toBe(200);
    expect(await stop.json()).toEqual({ status: true });
    expect(await storedExpiry(session.sessionId)).toBeUndefined();
    const after = await fetch(`${app.url}/_svc/rest/account/whoami`, { headers: bearer });
    expect(after.status).toBe(401);
    const ended = (await auditEntries("impersonation.end")).find(
      (entry) => entry.targetId === session.sessionId,
    );
    expect(ended).toMatchObject({ operator: "admin", userId, outcome: "ok" });
  });

  it("ends from the admin API too", async () => {
    const session = await impersonate();
    const revoke = await admin("DELETE", `users/${userId}/sessions/${session.sessionId}`);
    expect(revoke.status).toBe(200);
    const after = await post(
      "/_svc/rpc",
      { path: "account:whoami", args: {} },
      { authorization: `Bearer ${session.token}` },
    );
    expect(after.status).toBe(401);
    const ended = (await auditEntries("session.revoke")).find(
      (entry) => entry.targetId === session.sessionId,
    );
    expect(ended).toMatchObject({ operator: "admin", detail: "impersonation by admin ended" });
  });
});

describe("finding 1: after expiresAt every surface refuses the token", () => {
  it("answers 401 over REST and RPC and no session on get-session", async () => {
    const wait = Date.parse(expiring.expiresAt) - Date.now() + 1_500;
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const bearer = { authorization: `Bearer ${expiring.token}` };
    const rest = await fetch(`${app.url}/_svc/rest/account/whoami`, { headers: bearer });
    expect(rest.status).toBe(401);
    const rpc = await post("/_svc/rpc", { path: "account:whoami", args: {} }, bearer);
    expect(rpc.status).toBe(401);
    const cookie = await fetch(`${app.url}/api/auth/get-session`, {
      headers: { cookie: expiring.cookie },
    });
    expect(await cookie.json()).toBeNull();
    const list = await fetch(`${app.url}/api/auth/list-sessions`, { headers: bearer });
    expect(list.status).toBe(401);
  }, 90_000);
});
