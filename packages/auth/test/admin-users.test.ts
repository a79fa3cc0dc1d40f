import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { adminAuthPost, adminFetch, adminJson, signIn, signUp } from "./admin-http.ts";
import { adminAuth } from "./fixture/admin.ts";
import {
  seedOAuthAccount,
  seedPasskey,
  seedTwoFactor,
  setRoleDirectly,
} from "./fixture/admin-seed.ts";
import { freshEmail } from "./http.ts";

const PASSWORD = "correct-password-1";

/** What better-auth itself says a bearer token is. */
function sessionOf(token: string | null) {
  return adminAuth.api.getSession({ headers: new Headers({ authorization: `Bearer ${token}` }) });
}

async function userWithSession(label: string) {
  const email = freshEmail(label);
  const id = await signUp(email, PASSWORD);
  const { token } = await signIn(email, PASSWORD);
  expect(token).toBeTruthy();
  return { email, id, token: token! };
}

describe("ban / unban", () => {
  it("bans: better-auth refuses the sign-in and the user's sessions stop resolving; unban lets them back", async () => {
    const { email, id, token } = await userWithSession("ban");
    expect((await sessionOf(token))?.user.id).toBe(id);

    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const { user } = await adminJson<{ user: Record<string, unknown> }>(
      "POST",
      `users/${id}/ban`,
      200,
      {
        body: { reason: "spam", expiresAt },
      },
    );
    expect(user).toMatchObject({ banned: true, banReason: "spam", banExpires: expiresAt });
    expect(await sessionOf(token)).toBeNull();
    const refused = await signIn(email, PASSWORD);
    expect(refused.status).toBe(403);

    expect(await adminJson("POST", `users/${id}/ban`, 409)).toMatchObject({ code: "CONFLICT" });
    const { user: unbanned } = await adminJson<{ user: Record<string, unknown> }>(
      "POST",
      `users/${id}/unban`,
      200,
    );
    expect(unbanned).toMatchObject({ banned: false, banReason: null, banExpires: null });
    expect((await signIn(email, PASSWORD)).status).toBe(200);
    expect(await adminJson("POST", `users/${id}/unban`, 409)).toMatchObject({
      detail: "The user is not banned.",
    });
  });

  it("a permanent ban clears an old expiry; an expired ban reads as not banned", async () => {
    const { email, id } = await userWithSession("reban");
    await env.ADMIN_DB.prepare(
      `UPDATE "user" SET "banned" = 1, "banReason" = 'old', "banExpires" = ? WHERE "id" = ?`,
    )
      .bind(new Date(Date.now() - 1000).toISOString(), id)
      .run();
    const { user } = await adminJson<{ user: Record<string, unknown> }>("GET", `users/${id}`, 200);
    expect(user).toMatchObject({ banned: false, banReason: null, banExpires: null });

    const banned = await adminJson<{ user: Record<string, unknown> }>(
      "POST",
      `users/${id}/ban`,
      200,
    );
    expect(banned.user).toMatchObject({ banned: true, banReason: null, banExpires: null });
    const stored = await env.ADMIN_DB.prepare(`SELECT "banExpires" FROM "user" WHERE "id" = ?`)
      .bind(id)
      .first("banExpires");
    expect(stored).toBeNull();
    expect((await signIn(email, PASSWORD)).status).toBe(403);
  });

  it("refuses an expiry in the past or not a date", async () => {
    const { id } = await userWithSession("badban");
    const answer = await adminJson<{ errors: unknown[] }>("POST", `users/${id}/ban`, 400, {
      body: { expiresAt: "yesterday", color: "red" },
    });
    expect(answer).toMatchObject({ code: "VALIDATION_FAILED" });
    expect(answer.errors).toEqual([{ path: "body.color", message: "unexpected field" }]);
    expect(
      await adminJson("POST", `users/${id}/ban`, 400, {
        body: { expiresAt: "2001-01-01T00:00:00Z" },
      }),
    ).toMatchObject({ errors: [{ path: "body.expiresAt", message: "must be in the future" }] });
    expect(
      (await adminJson<{ user: { banned: boolean } }>("GET", `users/${id}`, 200)).user.banned,
    ).toBe(false);
  });
});

describe("sessions", () => {
  it("revoking one session makes exactly that one stop resolving; revoking all ends the rest", async () => {
    const { email, id, token: first } = await userWithSession("sessions");
    const second = (await signIn(email, PASSWORD)).token!;
    const { sessions } = await adminJson<{ sessions: { id: string }[] }>(
      "GET",
      `users/${id}/sessions`,
      200,
    );
    expect(sessions).toHaveLength(3); // sign-up signs in too
    const firstId = (await sessionOf(first))!.session.id;

    expect(await adminJson("DELETE", `users/${id}/sessions/${firstId}`, 200)).toEqual({
      revoked: 1,
    });
    expect(await sessionOf(first)).toBeNull();
    expect((await sessionOf(second))?.user.id).toBe(id);
    expect(await adminJson("DELETE", `users/${id}/sessions/${firstId}`, 404)).toMatchObject({
      code: "NOT_FOUND",
    });

    expect(await adminJson("DELETE", `users/${id}/sessions`, 200)).toEqual({ revoked: 2 });
    expect(await sessionOf(second)).toBeNull();
  });

  it("will not revoke another user's session through this user", async () => {
    const a = await userWithSession("owner-a");
    const b = await userWithSession("owner-b");
    const sessionId = (await sessionOf(b.token))!.session.id;
    await adminJson("DELETE", `users/${a.id}/sessions/${sessionId}`, 404);
    expect((await sessionOf(b.token))?.user.id).toBe(b.id);
  });
});

describe("set password", () => {
  it("replaces the password: the new one signs in, the old one no longer does", async () => {
    const { email, id } = await userWithSession("password");
    expect(
      await adminJson("POST", `users/${id}/password`, 200, {
        body: { password: "brand-new-password" },
      }),
    ).toEqual({ updated: true, createdCredentialAccount: false });
    expect((await signIn(email, PASSWORD)).status).toBe(401);
    expect((await signIn(email, "brand-new-password")).status).toBe(200);
  });

  it("creates a credential account for a user who had none, so the password works", async () => {
    const email = freshEmail("oauth-only");
    const { user } = await adminJson<{ user: { id: string } }>("POST", "users", 201, {
      body: { email, name: "OAuth Only" },
    });
    await seedOAuthAccount(user.id);
    expect((await signIn(email, "a-password-for-later")).status).toBe(401);
    expect(
      await adminJson("POST", `users/${user.id}/password`, 200, {
        body: { password: "a-password-for-later" },
      }),
    ).toEqual({ updated: true, createdCredentialAccount: true });
    expect((await signIn(email, "a-password-for-later")).status).toBe(200);
    const { accounts } = await adminJson<{ accounts: { providerId: string }[] }>(
      "GET",
      `users/${user.id}/accounts`,
      200,
    );
    expect(accounts.map((account) => account.providerId).sort()).toEqual(["credential", "github"]);
  });

  it("refuses a password better-auth would refuse, and an unknown user", async () => {
    const { id } = await userWithSession("short");
    expect(
      await adminJson("POST", `users/${id}/password`, 400, { body: { password: "short" } }),
    ).toMatchObject({
      errors: [{ path: "body.password", message: "must be at least 8 characters" }],
    });
    expect(
      await adminJson("POST", "users/no-such-user/password", 404, {
        body: { password: "long enough password" },
      }),
    ).toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("impersonate", () => {
  it("returns a token better-auth resolves to the user, recorded with the operator, ending when revoked", async () => {
    const { id, token: own } = await userWithSession("impersonated");
    const before = Date.now();
    const answer = await adminJson<{
      token: string;
      sessionId: string;
      userId: string;
      expiresAt: string;
      cookie: string;
    }>("POST", `users/${id}/impersonate`, 200, { body: { reason: "ticket 4411" } });
    expect(answer.userId).toBe(id);
    const expires = Date.parse(answer.expiresAt);
    expect(expires).toBeGreaterThanOrEqual(before + 3_600_000 - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 3_600_000 + 1000);

    const resolved = await sessionOf(answer.token);
    expect(resolved?.user.id).toBe(id);
    expect(resolved?.session).toMatchObject({
      id: answer.sessionId,
      impersonatedBy: "svc-operator:alice",
    });
    const byCookie = await adminAuth.api.getSession({
      headers: new Headers({ cookie: answer.cookie }),
    });
    expect(byCookie?.session.id).toBe(answer.sessionId);

    // The user's own session list (better-auth's admin plugin) hides the impersonation.
    const ownList = await listOwnSessions(own);
    expect(ownList).not.toContain(answer.sessionId);
    // The admin list shows it, with the operator's name.
    const { sessions } = await adminJson<{
      sessions: { id: string; impersonatedBy: string | null }[];
    }>("GET", `users/${id}/sessions`, 200);
    expect(sessions.find((session) => session.id === answer.sessionId)?.impersonatedBy).toBe(
      "alice",
    );

    const { entries } = await adminJson<{ entries: Record<string, unknown>[] }>(
      "GET",
      `audit?target=${id}&action=user.impersonate`,
      200,
    );
    expect(entries[0]).toMatchObject({ operator: "alice", reason: "ticket 4411", outcome: "ok" });

    await adminJson("DELETE", `users/${id}/sessions/${answer.sessionId}`, 200);
    expect(await sessionOf(answer.token)).toBeNull();
    expect((await sessionOf(own))?.user.id).toBe(id);
  });

  it("bounds the lifetime, and refuses admins and banned users", async () => {
    const { id } = await userWithSession("bounded");
    const short = await adminJson<{ expiresAt: string }>("POST", `users/${id}/impersonate`, 200, {
      body: { durationSeconds: 120 },
    });
    expect(Date.parse(short.expiresAt) - Date.now()).toBeLessThanOrEqual(120_000);
    expect(
      await adminJson("POST", `users/${id}/impersonate`, 400, { body: { durationSeconds: 7200 } }),
    ).toMatchObject({ errors: [{ path: "body.durationSeconds" }] });

    const boss = await userWithSession("boss");
    await setRoleDirectly(boss.id, "admin");
    expect(await adminJson("POST", `users/${boss.id}/impersonate`, 403)).toMatchObject({
      code: "FORBIDDEN",
    });

    await adminJson("POST", `users/${id}/ban`, 200);
    expect(await adminJson("POST", `users/${id}/impersonate`, 409)).toMatchObject({
      code: "CONFLICT",
    });
  });
});

/** Session ids the user sees through better-auth's own `list-sessions`. */
async function listOwnSessions(token: string): Promise<string[]> {
  const sessions = await adminAuth.api.listSessions({
    headers: new Headers({ authorization: `Bearer ${token}` }),
  });
  return sessions.map((session) => session.id);
}

describe("role", () => {
  it("sets a role better-auth then reports; refuses a role that does not exist", async () => {
    const { id, token } = await userWithSession("role");
    const { user } = await adminJson<{ user: { role: string } }>("POST", `users/${id}/role`, 200, {
      body: { role: ["admin", "user"] },
    });
    expect(user.role).toBe("admin,user");
    expect((await sessionOf(token))?.user).toMatchObject({ role: "admin,user" });
    expect(
      await adminJson("POST", `users/${id}/role`, 400, { body: { role: "wizard" } }),
    ).toMatchObject({
      code: "VALIDATION_FAILED",
      errors: [{ path: "body.role", message: 'unknown role "wizard" (known: user, admin)' }],
    });
    expect(await adminJson("POST", `users/${id}/role`, 400, { body: {} })).toMatchObject({
      errors: [{ path: "body.role", message: "required field is missing" }],
    });
  });
});

describe("create", () => {
  it("creates a user who can sign in with the password; refuses a taken email", async () => {
    const email = freshEmail("created");
    const { user } = await adminJson<{ user: Record<string, unknown> }>("POST", "users", 201, {
      body: {
        email: email.toUpperCase(),
        name: "Created",
        password: PASSWORD,
        role: "admin",
        emailVerified: true,
      },
    });
    expect(user).toMatchObject({ email, name: "Created", role: "admin", emailVerified: true });
    const session = await sessionOf((await signIn(email, PASSWORD)).token);
    expect(session?.user).toMatchObject({ id: user.id, role: "admin" });

    expect(await adminJson("POST", "users", 409, { body: { email, name: "Again" } })).toMatchObject(
      { code: "CONFLICT", data: { authCode: "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL" } },
    );
    const bad = await adminJson<{ errors: { path: string }[] }>("POST", "users", 400, {
      body: { email: "not-an-email", name: "", role: "wizard", password: "x" },
    });
    expect(bad.errors.map((issue) => issue.path)).toEqual(["body.email", "body.name", "body.role"]);
  });
});

describe("delete", () => {
  it("removes the user and everything of theirs: better-auth no longer knows them", async () => {
    const { email, id, token } = await userWithSession("deleted");
    await seedOAuthAccount(id);
    expect(await adminJson("DELETE", `users/${id}`, 200)).toEqual({ deleted: true });
    expect(await sessionOf(token)).toBeNull();
    expect((await signIn(email, PASSWORD)).status).toBe(401);
    for (const table of ["session", "account"]) {
      const left = await env.ADMIN_DB.prepare(
        `SELECT COUNT(*) AS n FROM "${table}" WHERE "userId" = ?`,
      )
        .bind(id)
        .first("n");
      expect(left, table).toBe(0);
    }
    expect(await adminJson("GET", `users/${id}`, 404)).toMatchObject({
      detail: `No user with id ${JSON.stringify(id)}.`,
    });
    expect(await adminJson("DELETE", `users/${id}`, 404)).toMatchObject({ code: "NOT_FOUND" });
    // A fresh sign-up with the same email is a new user.
    const again = await adminAuthPost("/sign-up/email", {
      email,
      password: PASSWORD,
      name: "Again",
    });
    expect(again.status).toBe(200);
  });

  it("is not reachable with another method", async () => {
    const response = await adminFetch("PUT", "users/whoever");
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, PATCH, DELETE");
  });
});

function bearer(token: string) {
  return { headers: new Headers({ authorization: `Bearer ${token}` }) };
}

describe("disable two-factor", () => {
  it("lets the user sign in with the password alone again, and deletes the TOTP secret", async () => {
    const email = freshEmail("2fa");
    const id = await signUp(email, PASSWORD);
    await seedTwoFactor(id);
    const challenged = await adminAuthPost("/sign-in/email", { email, password: PASSWORD });
    expect(await challenged.json()).toMatchObject({ twoFactorRedirect: true });

    const { user } = await adminJson<{ user: { twoFactorEnabled: boolean } }>(
      "POST",
      `users/${id}/two-factor/disable`,
      200,
    );
    expect(user.twoFactorEnabled).toBe(false);
    const secrets = await env.ADMIN_DB.prepare(
      `SELECT COUNT(*) AS n FROM "twoFactor" WHERE "userId" = ?`,
    )
      .bind(id)
      .first("n");
    expect(secrets).toBe(0);
    const { token } = await signIn(email, PASSWORD);
    const session = await adminAuth.api.getSession(bearer(token!));
    expect(session?.user).toMatchObject({ id, twoFactorEnabled: false });
    expect(await adminJson("POST", `users/${id}/two-factor/disable`, 409)).toMatchObject({
      detail: "Two-factor authentication is not enabled for this user.",
    });
  });
});

describe("passkeys", () => {
  it("lists and revokes a passkey: better-auth's own list no longer has it", async () => {
    const email = freshEmail("passkey");
    const id = await signUp(email, PASSWORD);
    const kept = await seedPasskey(id, "Phone");
    const revoked = await seedPasskey(id, "Laptop");
    const { passkeys } = await adminJson<{ passkeys: { id: string; name: string }[] }>(
      "GET",
      `users/${id}/passkeys`,
      200,
    );
    expect(passkeys.map((passkey) => passkey.name).sort()).toEqual(["Laptop", "Phone"]);

    expect(await adminJson("DELETE", `users/${id}/passkeys/${revoked.id}`, 200)).toEqual({
      deleted: true,
    });
    const { token } = await signIn(email, PASSWORD);
    const own = await adminAuth.api.listPasskeys(bearer(token!));
    expect(own.map((passkey) => passkey.id)).toEqual([kept.id]);
    await adminJson("DELETE", `users/${id}/passkeys/${revoked.id}`, 404);
  });
});

describe("linked accounts", () => {
  it("unlinks an OAuth account: better-auth's list-accounts no longer has it", async () => {
    const email = freshEmail("linked");
    const id = await signUp(email, PASSWORD);
    const github = await seedOAuthAccount(id);
    expect(await adminJson("DELETE", `users/${id}/accounts/${github.id}`, 200)).toEqual({
      deleted: true,
    });
    const { token } = await signIn(email, PASSWORD);
    const accounts = await adminAuth.api.listUserAccounts(bearer(token!));
    expect(accounts.map((account) => account.providerId)).toEqual(["credential"]);
  });

  it("refuses to remove the last way to sign in, counting passkeys", async () => {
    const email = freshEmail("last-method");
    const id = await signUp(email, PASSWORD);
    const { accounts } = await adminJson<{ accounts: { id: string }[] }>(
      "GET",
      `users/${id}/accounts`,
      200,
    );
    const credential = accounts[0]!.id;
    expect(await adminJson("DELETE", `users/${id}/accounts/${credential}`, 409)).toMatchObject({
      code: "CONFLICT",
    });
    const passkey = await seedPasskey(id);
    await adminJson("DELETE", `users/${id}/accounts/${credential}`, 200);
    expect(await adminJson("DELETE", `users/${id}/passkeys/${passkey.id}`, 409)).toMatchObject({
      detail: expect.stringContaining("last sign-in method"),
    });
    expect((await signIn(email, PASSWORD)).status).toBe(401);
  });
});

describe("names by id", () => {
  it("names each user of a list of ids in one answer, with only id, name and email", async () => {
    const ann = await userWithSession("names-ann");
    const bob = await userWithSession("names-bob");
    const { users } = await adminJson<{ users: Record<string, unknown>[] }>(
      "GET",
      `users/names?ids=${ann.id},${bob.id},${ann.id},${crypto.randomUUID()}`,
      200,
    );
    // Repeats count once, an unknown id is left out, and no other field is answered.
    expect(users.sort((a, b) => String(a.email).localeCompare(String(b.email)))).toEqual([
      { id: ann.id, name: "Test User", email: ann.email },
      { id: bob.id, name: "Test User", email: bob.email },
    ]);
  });

  it("refuses more than 100 ids and a missing list with the path", async () => {
    const ids = Array.from({ length: 101 }, () => crypto.randomUUID()).join(",");
    expect(await adminJson("GET", `users/names?ids=${ids}`, 400)).toMatchObject({
      code: "VALIDATION_FAILED",
      errors: [{ path: "query.ids", message: "at most 100 ids (got 101)" }],
    });
    expect(await adminJson("GET", "users/names", 400)).toMatchObject({
      code: "VALIDATION_FAILED",
      errors: [{ path: "query.ids" }],
    });
  });
});
