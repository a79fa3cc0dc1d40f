import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { IMPERSONATION_ALLOWED_PATHS } from "../../../../packages/auth/src/impersonation/allow-list.ts";
import { type AuthEndpoint, exampleEndpoints } from "./auth-endpoints.ts";
import { appForThisFile } from "./harness.ts";
import { openLocalD1 } from "./state-db.ts";

/**
 * Issue 26 finding 4 through real HTTP against the example app: an
 * impersonation session runs on an allow-list of better-auth endpoints.
 * Every other endpoint of every plugin the app enables answers 403 and is
 * audited with the operator; an owner invitation, the reported escalation,
 * is refused and leaves no row.
 */

const ADMIN_TOKEN = "allow-list-test-admin-token-0123456789";
const app = appForThisFile({ vars: { SVC_ADMIN_TOKEN: ADMIN_TOKEN } });

let userId: string;
let ownBearer: Record<string, string>;
let organizationId: string;

const freshIp = () => `2001:db8:4:${randomUUID().slice(0, 4)}::${randomUUID().slice(0, 4)}`;

function call(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<Response> {
  return fetch(`${app.url}/api/auth${path}`, {
    method,
    headers: {
      origin: app.url,
      "cf-connecting-ip": freshIp(),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function impersonate(): Promise<{ bearer: Record<string, string>; sessionId: string }> {
  const response = await fetch(`${app.url}/_svc/admin/auth/users/${userId}/impersonate`, {
    method: "POST",
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ durationSeconds: 600, reason: "issue 26 probe" }),
  });
  expect(response.status).toBe(200);
  const { token, sessionId } = (await response.json()) as { token: string; sessionId: string };
  return { bearer: { authorization: `Bearer ${token}` }, sessionId };
}

async function query(sql: string, ...params: string[]): Promise<Record<string, unknown>[]> {
  const db = await openLocalD1(app.stateDir);
  try {
    return db.prepare(sql).all(...params) as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

const refusals = (sessionId: string) =>
  query(
    "select operator, action, userId, outcome, detail from svcAdminAudit where targetId = ? and action = 'impersonation.refused'",
    sessionId,
  );

/** The groups the issue names, each with endpoints the example app enables. */
const REFUSED_GROUPS: Record<string, string[]> = {
  credentials: [
    "/change-password",
    "/change-email",
    "/verify-password",
    "/two-factor/enable",
    "/two-factor/get-totp-uri",
    "/passkey/generate-register-options",
    "/passkey/delete-passkey",
    "/link-social",
    "/unlink-account",
    "/request-password-reset",
  ],
  sessions: ["/list-sessions", "/revoke-session", "/revoke-sessions", "/revoke-other-sessions"],
  "organization membership, invitations and roles": [
    "/organization/create",
    "/organization/invite-member",
    "/organization/accept-invitation",
    "/organization/cancel-invitation",
    "/organization/update-member-role",
    "/organization/remove-member",
    "/organization/leave",
    "/organization/update",
    "/organization/delete",
  ],
  "admin operations": ["/admin/set-role", "/admin/create-user", "/admin/impersonate-user"],
};

/** Endpoints that end the session: called last, on their own. */
const ENDING = new Set(["/sign-out", "/admin/stop-impersonating"]);

const concrete = (path: string) => path.replace(/:[^/]+/g, "x");

beforeAll(async () => {
  const signUp = await call(
    "POST",
    "/sign-up/email",
    {},
    {
      email: "org-owner@example.com",
      password: "a long password",
      name: "Owner",
    },
  );
  expect(signUp.status).toBe(200);
  ownBearer = { authorization: `Bearer ${signUp.headers.get("set-auth-token")}` };
  userId = ((await signUp.json()) as { user: { id: string } }).user.id;
  const created = await call("POST", "/organization/create", ownBearer, {
    name: "Owner's org",
    slug: `owners-${randomUUID().slice(0, 8)}`,
  });
  expect(created.status).toBe(200);
  organizationId = ((await created.json()) as { id: string }).id;
});

describe("finding 4: impersonation cannot mint access through organizations", () => {
  it("refuses an owner invitation for an outsider, stores none, and audits it", async () => {
    const { bearer, sessionId } = await impersonate();
    const invite = await call("POST", "/organization/invite-member", bearer, {
      email: "outsider@example.com",
      role: "owner",
      organizationId,
    });
    expect(invite.status).toBe(403);
    expect(await invite.json()).toMatchObject({ code: "IMPERSONATION_FORBIDDEN" });
    expect(await query("select id from invitation where email = 'outsider@example.com'")).toEqual(
      [],
    );
    expect(await refusals(sessionId)).toEqual([
      {
        operator: "admin",
        action: "impersonation.refused",
        userId,
        outcome: "error",
        detail: "refused /organization/invite-member",
      },
    ]);
    // The user's own session may invite: the refusal is the impersonation's.
    const own = await call("POST", "/organization/invite-member", ownBearer, {
      email: "colleague@example.com",
      role: "member",
      organizationId,
    });
    expect(own.status).toBe(200);
  });

  it("still reads the organizations and switches the active one", async () => {
    const { bearer } = await impersonate();
    const list = await call("GET", "/organization/list", bearer);
    expect(list.status).toBe(200);
    expect(await list.json()).toMatchObject([{ id: organizationId }]);
    const active = await call("POST", "/organization/set-active", bearer, { organizationId });
    expect(active.status).toBe(200);
  });
});

describe("the allow-list covers every endpoint of every plugin the app enables", () => {
  let endpoints: AuthEndpoint[];
  beforeAll(() => {
    endpoints = exampleEndpoints();
  });

  it("names each refused group's endpoints among the app's, none allowed", () => {
    const paths = new Set(endpoints.map((endpoint) => endpoint.path));
    for (const [group, members] of Object.entries(REFUSED_GROUPS)) {
      for (const path of members) {
        expect(paths.has(path), `${group}: ${path}`).toBe(true);
        expect(IMPERSONATION_ALLOWED_PATHS.has(path), `${group}: ${path}`).toBe(false);
      }
    }
  });

  it("answers 403 to every endpoint off the allow-list and audits each, and serves the rest", async () => {
    const { bearer, sessionId } = await impersonate();
    const refused: string[] = [];
    const served: string[] = [];
    for (const { path, method } of endpoints) {
      if (ENDING.has(path)) continue;
      const response = await call(
        method,
        concrete(path),
        bearer,
        method === "GET" ? undefined : {},
      );
      const text = await response.text();
      if (IMPERSONATION_ALLOWED_PATHS.has(path)) {
        expect(text, `${method} ${path}`).not.toContain("IMPERSONATION_FORBIDDEN");
        expect(response.status, `${method} ${path}`).toBeLessThan(500);
        served.push(path);
      } else {
        expect(response.status, `${method} ${path} → ${text.slice(0, 200)}`).toBe(403);
        expect(JSON.parse(text), `${method} ${path}`).toMatchObject({
          code: "IMPERSONATION_FORBIDDEN",
        });
        refused.push(path);
      }
    }
    expect(served).toContain("/get-session");
    expect(refused.length).toBeGreaterThan(60);
    const audited = await refusals(sessionId);
    expect(audited.map((entry) => entry.detail).sort()).toEqual(
      refused.map((path) => `refused ${path}`).sort(),
    );
    expect(new Set(audited.map((entry) => entry.operator))).toEqual(new Set(["admin"]));

    // Allowed, and last: sign-out ends the impersonation.
    const signOut = await call("POST", "/sign-out", bearer, {});
    expect(signOut.status).toBe(200);
    const after = await call("GET", "/get-session", bearer);
    expect(await after.json()).toBeNull();
  });
});
