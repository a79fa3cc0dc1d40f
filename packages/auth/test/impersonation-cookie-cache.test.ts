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
import { admin, bearer } from "../src/plugins.ts";
import { TEST_ORIGIN, TEST_SECRET } from "./fixture/constants.ts";
import { functions } from "./fixture/functions.ts";
import { cookieFrom, freshEmail } from "./http.ts";
import { adminJsonOf, inProcessApp } from "./in-process-app.ts";

/**
 * With better-auth's cookie cache on, an endpoint runs as the session in a
 * signed `session_data` cookie for up to `maxAge` without asking the
 * database. An impersonation ended (its row deleted) or a session revoked
 * still reached every endpoint through such a cookie kept from before:
 * the impersonation guard looked only at live sessions, and the API key
 * endpoint minted a permanent key from the cached one.
 */

const TOKEN = "impersonation-cache-admin-token-0123456789";
const auth = createAuth({
  secret: TEST_SECRET,
  baseURL: TEST_ORIGIN,
  database: svcDatabaseAdapter(env.API_KEYS),
  emailAndPassword: { enabled: true },
  session: { cookieCache: { enabled: true, maxAge: 300 } },
  plugins: [admin(), bearer(), apiKeySelfService()],
});
const svc = createWorker({
  shardDO: "SHARD",
  functions,
  resolveIdentity: sessionIdentity(auth),
  adminToken: { cacheops: TOKEN },
  authAdmin: createAuthAdmin(auth, { dashboard: false }),
});

const send = inProcessApp(auth, svc);
const adminJson = adminJsonOf(send, TOKEN);

/** The `session_data` cookie (the cookie cache) of a response, as a request sends it. */
function cacheCookieOf(response: Response): string {
  const cookie = cookieFrom(response)
    .split("; ")
    .find((pair) => pair.startsWith("better-auth.session_data="));
  expect(cookie, "the answer sets the cookie cache").toBeDefined();
  return cookie ?? "";
}

async function keysOf(userId: string): Promise<unknown[]> {
  const { results } = await env.API_KEYS.prepare(
    'SELECT id FROM "svcApiKey" WHERE "ownerUserId" = ?',
  )
    .bind(userId)
    .all();
  return results;
}

let victimId: string;

beforeAll(async () => {
  const response = await send("/api/auth/sign-up/email", {
    method: "POST",
    body: JSON.stringify({
      email: freshEmail("cache-victim"),
      password: "a long password",
      name: "Victim",
    }),
  });
  victimId = ((await response.json()) as { user: { id: string } }).user.id;
});

describe("better-auth's cookie cache after a session ended", () => {
  it("mints no API key for an ended impersonation's cached session", async () => {
    const impersonation = await adminJson<{ token: string; sessionId: string }>(
      "POST",
      `users/${victimId}/impersonate`,
      { reason: "support" },
    );
    // While it lasts, the impersonation reads its session: the answer sets the cookie cache.
    const read = await send("/api/auth/get-session", {
      headers: { authorization: `Bearer ${impersonation.token}` },
    });
    expect(read.status).toBe(200);
    const cache = cacheCookieOf(read);
    // While live, the guard already refuses the key.
    const live = await send("/api/auth/api-keys", {
      method: "POST",
      headers: { authorization: `Bearer ${impersonation.token}`, cookie: cache },
      body: JSON.stringify({ name: "forever", scopes: ["*"] }),
    });
    expect(live.status).toBe(403);
    // The operator ends it: the session row is gone.
    await adminJson("DELETE", `users/${victimId}/sessions/${impersonation.sessionId}`);

    const attack = await send("/api/auth/api-keys", {
      method: "POST",
      headers: { authorization: `Bearer ${impersonation.token}`, cookie: cache },
      body: JSON.stringify({ name: "forever", scopes: ["*"] }),
    });
    const text = await attack.text();
    expect(attack.status, text).toBe(403);
    expect(JSON.parse(text)).toMatchObject({ code: "IMPERSONATION_FORBIDDEN" });
    expect(await keysOf(victimId)).toEqual([]);
    // Any endpoint off the allow-list, not only keys: the guard judges the cached copy.
    const password = await send("/api/auth/change-password", {
      method: "POST",
      headers: { authorization: `Bearer ${impersonation.token}`, cookie: cache },
      body: JSON.stringify({ currentPassword: "a long password", newPassword: "taken over!!" }),
    });
    expect(password.status, await password.clone().text()).toBe(403);
  });

  it("mints no API key from a revoked session's cached copy", async () => {
    const signIn = await send("/api/auth/sign-up/email", {
      method: "POST",
      body: JSON.stringify({
        email: freshEmail("cache-revoked"),
        password: "a long password",
        name: "Revoked",
      }),
    });
    const userId = ((await signIn.clone().json()) as { user: { id: string } }).user.id;
    // The sign-up answer sets both: the session token and its cached copy.
    const cookie = cookieFrom(signIn);
    expect(cookie).toContain(cacheCookieOf(signIn));
    // Before the revocation, the same request makes a key (and so proves the cookies work).
    const before = await send("/api/auth/api-keys", {
      method: "POST",
      headers: { cookie },
      body: JSON.stringify({ name: "first", scopes: ["*"] }),
    });
    expect(before.status).toBe(201);
    await adminJson("DELETE", `users/${userId}/sessions`);

    const attack = await send("/api/auth/api-keys", {
      method: "POST",
      headers: { cookie },
      body: JSON.stringify({ name: "after revocation", scopes: ["*"] }),
    });
    expect(attack.status, await attack.clone().text()).toBe(401);
    expect(await keysOf(userId)).toHaveLength(1);
  });
});
