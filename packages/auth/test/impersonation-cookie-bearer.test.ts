import { env } from "cloudflare:workers";
import { createWorker } from "@svc/server";
import { beforeAll, describe, expect, it } from "vitest";
import {
  apiKeySelfService,
  createAuth,
  createAuthAdmin,
  sessionIdentity,
  svcDatabaseAdapter,
} from "../src/index.ts";
import { admin, bearer, organization } from "../src/plugins.ts";
import { TEST_ORIGIN, TEST_SECRET } from "./fixture/constants.ts";
import { functions } from "./fixture/functions.ts";
import { cookieFrom, freshEmail } from "./http.ts";
import { adminJsonOf, inProcessApp } from "./in-process-app.ts";

/**
 * Issue 53, point 1: a request carrying the operator's own session cookie
 * and `Authorization: Bearer <impersonation token>` ran the endpoint as the
 * impersonated user (better-auth's `bearer()` swaps the bearer in after the
 * guard had looked at the cookie), minting a permanent `*` key for the
 * victim. Every allow-listed-off endpoint the issue names must answer 403
 * `IMPERSONATION_FORBIDDEN`, audited against the operator, whichever
 * credential carries the impersonation.
 */

const TOKEN = "impersonation-pair-admin-token-0123456789";
const auth = createAuth({
  secret: TEST_SECRET,
  baseURL: TEST_ORIGIN,
  database: svcDatabaseAdapter(env.API_KEYS),
  emailAndPassword: { enabled: true },
  plugins: [admin(), organization(), bearer(), apiKeySelfService()],
});
const svc = createWorker({
  shardDO: "SHARD",
  functions,
  resolveIdentity: sessionIdentity(auth),
  adminToken: { pairops: TOKEN },
  authAdmin: createAuthAdmin(auth, { dashboard: false }),
});

const send = inProcessApp(auth, svc);
const adminJson = adminJsonOf(send, TOKEN);

interface Person {
  id: string;
  token: string;
  cookie: string;
}

async function signUp(label: string): Promise<Person> {
  const response = await send("/api/auth/sign-up/email", {
    method: "POST",
    body: JSON.stringify({ email: freshEmail(label), password: "a long password", name: label }),
  });
  const body = (await response.json()) as { user: { id: string } };
  return {
    id: body.user.id,
    token: response.headers.get("set-auth-token") ?? "",
    cookie: cookieFrom(response),
  };
}

/** The attacks of the issue: each an endpoint the impersonated user must not reach. */
function attacks(organizationId: string, memberId: string) {
  return [
    ["/api-keys", { name: "forever", scopes: ["*"] }],
    ["/organization/create", { name: "Shadow", slug: `shadow-${crypto.randomUUID()}` }],
    [
      "/organization/invite-member",
      { email: freshEmail("outsider"), role: "owner", organizationId },
    ],
    ["/organization/update-member-role", { memberId, role: "owner", organizationId }],
  ] as const;
}

let operator: Person;
let victim: Person;
let organizationId: string;
let memberId: string;

beforeAll(async () => {
  operator = await signUp("pair-operator");
  victim = await signUp("pair-victim");
  const helper = await signUp("pair-member");
  const { organization: org } = await adminJson<{ organization: { id: string } }>(
    "POST",
    "organizations",
    { name: "Victim Co", slug: `victim-${crypto.randomUUID()}`, ownerId: victim.id },
  );
  organizationId = org.id;
  const added = await adminJson<{ member: { id: string } }>(
    "POST",
    `organizations/${organizationId}/members`,
    { userId: helper.id, role: "member" },
  );
  memberId = added.member.id;
});

/** Sends each attack with the operator's cookie and `bearer` beside it; all must be refused. */
async function expectAllRefused(bearerValue: string, sessionId: string) {
  const before = await refusalsOf(sessionId);
  for (const [endpoint, body] of attacks(organizationId, memberId)) {
    for (const scheme of ["Bearer", "bearer"]) {
      const response = await send(`/api/auth${endpoint}`, {
        method: "POST",
        headers: { cookie: operator.cookie, authorization: `${scheme} ${bearerValue}` },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      expect(response.status, `${scheme} ${endpoint}: ${text}`).toBe(403);
      expect(JSON.parse(text)).toMatchObject({ code: "IMPERSONATION_FORBIDDEN" });
    }
  }
  const refusals = await refusalsOf(sessionId);
  expect(refusals.length - before.length).toBe(8);
  for (const entry of refusals) {
    expect(entry).toMatchObject({ operator: "pairops", userId: victim.id, outcome: "error" });
  }
  // Nothing was made for the victim.
  const keys = await env.API_KEYS.prepare('SELECT id FROM "svcApiKey" WHERE "ownerUserId" = ?')
    .bind(victim.id)
    .all();
  expect(keys.results).toEqual([]);
  const orgs = await env.API_KEYS.prepare('SELECT id FROM "member" WHERE "userId" = ?')
    .bind(victim.id)
    .all();
  expect(orgs.results).toHaveLength(1);
  const invited = await env.API_KEYS.prepare(
    'SELECT id FROM "invitation" WHERE "organizationId" = ?',
  )
    .bind(organizationId)
    .all();
  expect(invited.results).toEqual([]);
  const roles = await env.API_KEYS.prepare('SELECT role FROM "member" WHERE id = ?')
    .bind(memberId)
    .first<{ role: string }>();
  expect(roles?.role).toBe("member");
}

async function refusalsOf(sessionId: string) {
  const { results } = await env.API_KEYS.prepare(
    "SELECT operator, userId, outcome, detail FROM svcAdminAudit WHERE targetId = ? AND action = 'impersonation.refused'",
  )
    .bind(sessionId)
    .all<{ operator: string; userId: string; outcome: string; detail: string }>();
  return results;
}

describe("a cookie beside an impersonation bearer (issue 53, point 1)", () => {
  it("refuses every credential-minting endpoint for the admin API's impersonation token", async () => {
    const impersonation = await adminJson<{ token: string; sessionId: string }>(
      "POST",
      `users/${victim.id}/impersonate`,
      { reason: "support" },
    );
    await expectAllRefused(impersonation.token, impersonation.sessionId);
    // The operator's own cookie alone still works: the guard judged the pair, not the cookie.
    const own = await send("/api/auth/api-keys", { headers: { cookie: operator.cookie } });
    expect(own.status).toBe(200);
  });

  it("refuses the same for a session opened from an impersonation link, sent as a bearer", async () => {
    const link = await adminJson<{ url: string }>(
      "POST",
      `users/${victim.id}/impersonation-link`,
      {},
    );
    const opened = await send(new URL(link.url).pathname, {
      method: "POST",
      headers: { "sec-fetch-site": "same-origin" },
    });
    expect(opened.status).toBe(303);
    const signed = /better-auth\.session_token=([^;]+)/.exec(cookieFrom(opened))?.[1] ?? "";
    const token = decodeURIComponent(signed).split(".")[0] ?? "";
    const row = await env.API_KEYS.prepare('SELECT id FROM "session" WHERE token = ?')
      .bind(token)
      .first<{ id: string }>();
    expect(row).not.toBeNull();
    await expectAllRefused(signed, row?.id ?? "");
  });
});
