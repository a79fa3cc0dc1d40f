import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { adminJson, signUp } from "./admin-http.ts";
import { ADMIN_AUTH_BASE } from "./fixture/admin.ts";
import { setRoleDirectly } from "./fixture/admin-seed.ts";
import { TEST_ORIGIN } from "./fixture/constants.ts";
import { freshEmail } from "./http.ts";

/**
 * Issue 17, "open the app as this user": a one-time link that sets the
 * bounded impersonation session in the browser, over the test worker's real
 * HTTP surface (createWorker + better-auth + D1).
 */

const PASSWORD = "correct-password-1";

interface Link {
  url: string;
  expiresAt: string;
}

async function user(label: string): Promise<{ id: string; email: string }> {
  const email = freshEmail(label);
  return { id: await signUp(email, PASSWORD), email };
}

function createLink(id: string, body: Record<string, unknown> = {}, status = 200) {
  return adminJson<Link & Record<string, unknown>>(
    "POST",
    `users/${id}/impersonation-link`,
    status,
    { body },
  );
}

/** Opens the link as a browser would: no admin token. */
function open(url: string, method: "GET" | "POST" = "GET", headers: HeadersInit = {}) {
  return exports.default.fetch(url, { method, headers, redirect: "manual" });
}

/** POSTs the link's form, as the link page itself does. */
function confirm(url: string) {
  return open(url, "POST", { "sec-fetch-site": "same-origin" });
}

function cookieOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .filter((pair) => !pair?.endsWith("="))
    .join("; ");
}

async function sessionOf(cookie: string) {
  const response = await exports.default.fetch(`${TEST_ORIGIN}${ADMIN_AUTH_BASE}/get-session`, {
    headers: { cookie },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as {
    user: { id: string; email: string };
    session: { id: string; expiresAt: string; impersonatedBy: string };
  } | null;
}

async function auditOf(id: string, action: string) {
  const { entries } = await adminJson<{ entries: Record<string, unknown>[] }>(
    "GET",
    `audit?target=${id}&action=${action}`,
    200,
  );
  return entries;
}

async function impersonationSessions(userId: string): Promise<string[]> {
  const { sessions } = await adminJson<{
    sessions: { id: string; impersonatedBy: string | null }[];
  }>("GET", `users/${userId}/sessions`, 200);
  return sessions.filter((session) => session.impersonatedBy === "alice").map((s) => s.id);
}

describe("impersonation link", () => {
  it("GET shows a page and uses nothing; POST signs the browser in as the user, once", async () => {
    const ann = await user("link-ann");
    const before = Date.now();
    const link = await createLink(ann.id, { reason: "ticket 17" });
    expect(link.url).toMatch(/^http:\/\/svc\.test\/_svc\/admin\/auth\/link\/[A-Za-z0-9_-]{43}$/);
    const ttl = Date.parse(link.expiresAt) - before;
    expect(ttl).toBeGreaterThan(100_000);
    expect(ttl).toBeLessThanOrEqual(121_000);

    for (const attempt of [1, 2]) {
      const page = await open(link.url);
      expect(page.status, `GET ${attempt}`).toBe(200);
      expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(page.headers.get("cache-control")).toBe("no-store");
      expect(page.headers.get("referrer-policy")).toBe("no-referrer");
      expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
      const html = await page.text();
      expect(html).toContain(`Continue as ${ann.email}`);
      expect(html).toContain("operator <strong>alice</strong>");
      expect(html).toContain("for 1 hour");
      expect(html).toContain('<form method="post">');
      expect(html).not.toContain("<script");
    }
    expect(await impersonationSessions(ann.id)).toEqual([]);

    const used = await confirm(link.url);
    expect(used.status).toBe(303);
    expect(used.headers.get("location")).toBe("/");
    const [sessionCookie] = used.headers.getSetCookie();
    expect(sessionCookie).toMatch(/^better-auth\.session_token=[^;]+; /);
    expect(sessionCookie).toContain("HttpOnly");
    expect(sessionCookie).toContain("SameSite=Lax");
    expect(sessionCookie).toContain("Path=/");
    expect(sessionCookie).not.toContain("Secure"); // the test origin is http
    const maxAge = Number(/Max-Age=(\d+)/.exec(sessionCookie ?? "")?.[1]);
    expect(maxAge).toBeGreaterThan(3590);
    expect(maxAge).toBeLessThanOrEqual(3600);

    const resolved = await sessionOf(cookieOf(used));
    expect(resolved?.user).toMatchObject({ id: ann.id, email: ann.email });
    expect(resolved?.session.impersonatedBy).toBe("svc-operator:alice");
    expect(await impersonationSessions(ann.id)).toEqual([resolved?.session.id]);

    const again = await confirm(link.url);
    expect(again.status).toBe(410);
    expect(await again.text()).toContain("already used or has expired");
    expect((await open(link.url)).status).toBe(410);

    const [created] = await auditOf(ann.id, "user.impersonation-link");
    expect(created).toMatchObject({ operator: "alice", reason: "ticket 17", outcome: "ok" });
    const [usedEntry] = await auditOf(resolved?.session.id ?? "", "impersonation.link-used");
    expect(usedEntry).toMatchObject({
      operator: "alice",
      userId: ann.id,
      reason: "ticket 17",
      outcome: "ok",
      targetType: "session",
    });
    const linkId = /^link (\S+) /.exec(String(created?.detail))?.[1];
    expect(usedEntry?.detail).toContain(`link ${linkId} used: session ${resolved?.session.id}`);
  });

  it("two concurrent POSTs: exactly one session", async () => {
    const bob = await user("link-race");
    const link = await createLink(bob.id);
    const answers = await Promise.all([confirm(link.url), confirm(link.url), confirm(link.url)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([303, 410, 410]);
    expect(await impersonationSessions(bob.id)).toHaveLength(1);
  });

  it("refuses an expired link, a POST from another site, and an unknown code", async () => {
    const cat = await user("link-expired");
    const link = await createLink(cat.id);
    const crossSite = await open(link.url, "POST", { "sec-fetch-site": "cross-site" });
    expect(crossSite.status).toBe(403);
    await env.ADMIN_DB.prepare(
      `UPDATE "verification" SET "expiresAt" = ? WHERE "value" LIKE ? AND "identifier" LIKE 'svc-impersonation-link:%'`,
    )
      .bind(new Date(Date.now() - 1000).toISOString(), `%"userId":"${cat.id}"%`)
      .run();
    const page = await open(link.url);
    expect(page.status).toBe(410);
    expect(await page.text()).toContain("create a new one from the dashboard");
    expect((await confirm(link.url)).status).toBe(410);
    expect(await impersonationSessions(cat.id)).toEqual([]);

    for (const code of ["x".repeat(43), "short", `${"y".repeat(43)}/extra`]) {
      const unknown = await open(`${TEST_ORIGIN}/_svc/admin/auth/link/${code}`, "POST");
      expect(unknown.status, code).toBe(410);
      expect(unknown.headers.get("content-type")).toContain("text/html");
    }
  });

  it("lands on redirectTo, a path on the app's origin; anything else is refused at creation", async () => {
    const dan = await user("link-redirect");
    for (const redirectTo of [
      "//evil.example/",
      "https://evil.example/",
      "/\\evil.example",
      "\\\\evil.example",
      "javascript:alert(1)",
      "account",
      "/ok\n",
      "",
    ]) {
      expect(await createLink(dan.id, { redirectTo }, 400), redirectTo).toMatchObject({
        errors: [{ path: "body.redirectTo" }],
      });
    }
    const link = await createLink(dan.id, {
      redirectTo: "/account?tab=billing",
      durationSeconds: 600,
    });
    const used = await confirm(link.url);
    expect(used.headers.get("location")).toBe("/account?tab=billing");
    const resolved = await sessionOf(cookieOf(used));
    const bound = Date.parse(resolved?.session.expiresAt ?? "") - Date.now();
    expect(bound).toBeLessThanOrEqual(600_000);
    expect(bound).toBeGreaterThan(590_000);
  });

  it("refuses admins and banned users, at creation and again when the link is used", async () => {
    const boss = await user("link-boss");
    await setRoleDirectly(boss.id, "admin");
    expect(await createLink(boss.id, {}, 403)).toMatchObject({ code: "FORBIDDEN" });

    const eve = await user("link-banned");
    const link = await createLink(eve.id);
    await adminJson("POST", `users/${eve.id}/ban`, 200);
    expect(await createLink(eve.id, {}, 409)).toMatchObject({ code: "CONFLICT" });
    const refused = await confirm(link.url);
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("banned");
    expect(refused.headers.getSetCookie()).toEqual([]);
    expect(await impersonationSessions(eve.id)).toEqual([]);
    const [entry] = await auditOf(eve.id, "impersonation.link-used");
    expect(entry).toMatchObject({ outcome: "error", operator: "alice" });
    expect(String(entry?.detail)).toMatch(/^link \S+: The user is banned/);
  });

  it("gives a session that keeps its bound and cannot reach credentials or other sessions", async () => {
    const fay = await user("link-guard");
    const link = await createLink(fay.id, { durationSeconds: 120 });
    const cookie = cookieOf(await confirm(link.url));
    const resolved = await sessionOf(cookie);
    const stored = () =>
      env.ADMIN_DB.prepare(`SELECT "expiresAt" FROM "session" WHERE "id" = ?`)
        .bind(resolved?.session.id)
        .first<{ expiresAt: string }>();
    const bound = (await stored())?.expiresAt;
    await sessionOf(cookie);
    expect((await stored())?.expiresAt).toBe(bound);

    for (const path of ["/list-sessions", "/revoke-other-sessions"]) {
      const refused = await exports.default.fetch(`${TEST_ORIGIN}${ADMIN_AUTH_BASE}${path}`, {
        method: path === "/list-sessions" ? "GET" : "POST",
        headers: { cookie, origin: TEST_ORIGIN, "content-type": "application/json" },
        ...(path === "/list-sessions" ? {} : { body: "{}" }),
      });
      expect(refused.status, path).toBe(403);
      expect(await refused.json()).toMatchObject({ code: "IMPERSONATION_FORBIDDEN" });
    }
  });

  it("needs no admin token to open, but an admin token to create", async () => {
    const gil = await user("link-token");
    expect(
      await adminJson("POST", `users/${gil.id}/impersonation-link`, 401, { token: null }),
    ).toMatchObject({ code: "UNAUTHENTICATED" });
  });
});
