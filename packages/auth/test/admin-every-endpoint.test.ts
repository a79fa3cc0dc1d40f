import { describe, expect, it } from "vitest";
import { adminFetch, signIn, signUp } from "./admin-http.ts";
import { ADMIN_TOKENS } from "./fixture/admin.ts";
import { everyEndpoint, everyRoute, routeOf } from "./fixture/admin-endpoints.ts";
import {
  seedOAuthAccount,
  seedOrganization,
  seedPasskey,
  seedTwoFactor,
  storedSecretsOf,
} from "./fixture/admin-seed.ts";
import { TEST_SECRET } from "./fixture/constants.ts";
import { freshEmail } from "./http.ts";

const ids = {
  userId: "u1",
  sessionId: "s1",
  accountId: "a1",
  passkeyId: "p1",
  organizationId: "o1",
  doomedMemberId: "m2",
  invitationId: "i1",
  doomedId: "u2",
  apiKeyId: "k1",
};

describe("the admin token", () => {
  it("is required by every endpoint: without it, or with a wrong one, the same 401", async () => {
    const calls = everyEndpoint(ids);
    expect(new Set(calls.map(routeOf))).toEqual(new Set(everyRoute()));
    const answers: unknown[] = [];
    for (const call of calls) {
      for (const token of [null, "wrong-token-0123456789abcdef0123456789", ""]) {
        const response = await adminFetch(call.method, call.path, { body: call.body, token });
        expect(response.status, `${call.method} ${call.path} with ${token}`).toBe(401);
        expect(response.headers.get("www-authenticate")).toBe('Bearer realm="svc-admin"');
        answers.push({ headers: [...response.headers.entries()], body: await response.text() });
      }
    }
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(JSON.parse((answers[0] as { body: string }).body)).toMatchObject({
      status: 401,
      code: "UNAUTHENTICATED",
    });
  });
});

const PASSWORD = "seeded-password-1";

describe("no secret leaves the admin API", () => {
  it("walks every endpoint over seeded data and finds no seeded secret in any response", async () => {
    const email = freshEmail("secrets");
    const userId = await signUp(email, PASSWORD);
    const { token } = await signIn(email, PASSWORD);
    await signIn(email, PASSWORD);
    const oauth = await seedOAuthAccount(userId);
    const twoFactor = await seedTwoFactor(userId);
    const passkey = await seedPasskey(userId);
    await seedPasskey(userId, "Second key");
    const doomedEmail = freshEmail("doomed");
    const doomedId = await signUp(doomedEmail, PASSWORD);
    const organization = await seedOrganization(
      [
        { userId, role: "owner" },
        { userId: doomedId, role: "member" },
      ],
      userId,
    );
    const sessions = await adminFetch("GET", `users/${userId}/sessions`);
    const sessionId = ((await sessions.json()) as { sessions: { id: string }[] }).sessions[0]!.id;

    // A key of the user's: its secret must never come back after its creation.
    const created = await adminFetch("POST", "api-keys", {
      body: { ownerUserId: userId, name: "Seeded", scopes: ["*"] },
    });
    expect(created.status).toBe(201);
    const seededKey = (await created.json()) as { apiKey: { id: string }; key: string };

    const secrets = [
      PASSWORD,
      seededKey.key,
      "walk-password-123",
      "walk-new-password-1",
      token!,
      ...oauth.secrets,
      ...twoFactor.secrets,
      ...passkey.secrets,
      ...(await storedSecretsOf(userId)),
      ...(await storedSecretsOf(doomedId)),
      ADMIN_TOKENS.alice,
      ADMIN_TOKENS.ci,
      TEST_SECRET,
    ];
    expect(new Set(secrets).size).toBeGreaterThanOrEqual(15);

    const calls = everyEndpoint({
      userId,
      sessionId,
      accountId: oauth.id,
      passkeyId: passkey.id,
      organizationId: organization.id,
      doomedMemberId: organization.memberIds[1]!,
      invitationId: organization.invitationId,
      doomedId,
      apiKeyId: seededKey.apiKey.id,
    });
    let impersonationToken: string | undefined;
    for (const call of calls) {
      const response = await adminFetch(call.method, call.path, { body: call.body });
      const text = await response.text();
      expect(response.status, `${call.method} ${call.path}: ${text}`).toBeLessThan(300);
      expect(response.headers.get("cache-control")).toBe("no-store");
      if (call.path.endsWith("/impersonate")) {
        impersonationToken = (JSON.parse(text) as { token: string }).token;
        // The one token the surface returns; nothing else in that answer either.
        for (const secret of secrets) expect(text).not.toContain(secret);
        continue;
      }
      for (const secret of [...secrets, ...(impersonationToken ? [impersonationToken] : [])]) {
        expect(text, `${call.method} ${call.path} leaks a secret`).not.toContain(secret);
      }
    }
    expect(impersonationToken).toBeTruthy();
    // The walk is the whole API: every route was called.
    expect(new Set(calls.map(routeOf))).toEqual(new Set(everyRoute()));
  });
});
