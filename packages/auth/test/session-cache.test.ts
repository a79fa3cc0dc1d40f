import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { type SessionSource, sessionIdentity } from "../src/index.ts";
import { auth } from "./fixture/auth.ts";
import { TEST_ORIGIN } from "./fixture/constants.ts";
import { authPost, cookieFrom, freshEmail } from "./http.ts";

const PASSWORD = "a long enough password";

async function signedIn(label: string) {
  const response = await authPost("/sign-up/email", {
    email: freshEmail(label),
    password: PASSWORD,
    name: label,
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { user: { id: string } };
  const cookie = cookieFrom(response);
  const identity = await sessionIdentity(auth, { cache: false })(withCookie(cookie), {});
  return { cookie, userId: body.user.id, sessionId: identity?.sessionId ?? "" };
}

const withCookie = (cookie: string) =>
  new Request(`${TEST_ORIGIN}/_svc/rpc`, { headers: { cookie } });

function manualClock() {
  let now = Date.now();
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

/** The test auth, counting how often the resolver asks better-auth. */
function counted(options: object = auth.options) {
  const source = {
    calls: 0,
    options,
    api: {
      getSession: (context: { headers: Headers }) => {
        source.calls += 1;
        return auth.api.getSession(context);
      },
    },
  } satisfies SessionSource & { calls: number };
  return source;
}

describe("sessionIdentity's cache (on by default)", () => {
  it("asks better-auth once for a repeated credential, again after ttlMs", async () => {
    const clock = manualClock();
    const source = counted();
    const resolve = sessionIdentity(source, { cache: { ttlMs: 10_000, clock: clock.now } });
    const { cookie, userId } = await signedIn("cached");
    for (let call = 0; call < 5; call++) {
      expect(await resolve(withCookie(cookie), {})).toMatchObject({ userId });
      clock.advance(100);
    }
    expect(source.calls).toBe(1);
    clock.advance(10_000);
    expect(await resolve(withCookie(cookie), {})).toMatchObject({ userId });
    expect(source.calls).toBe(2);
  });

  it("stops resolving a session deleted elsewhere once revocationMs has passed", async () => {
    const clock = manualClock();
    const resolve = sessionIdentity(auth, { cache: { clock: clock.now } });
    const { cookie, userId, sessionId } = await signedIn("elsewhere");
    expect(await resolve(withCookie(cookie), {})).toMatchObject({ userId });
    // Another isolate revokes it: straight in D1, nothing this isolate served.
    await env.DB.prepare(`DELETE FROM "session" WHERE "id" = ?`).bind(sessionId).run();
    expect(await resolve(withCookie(cookie), {})).toMatchObject({ userId });
    clock.advance(500);
    expect(await resolve(withCookie(cookie), {})).toBeNull();
  });

  it("sees a sign-out served by this isolate's auth routes on the very next call", async () => {
    const clock = manualClock();
    const resolve = sessionIdentity(auth, { cache: { clock: clock.now } });
    const { cookie, userId } = await signedIn("own-sign-out");
    expect(await resolve(withCookie(cookie), {})).toMatchObject({ userId });
    expect((await authPost("/sign-out", {}, { cookie })).status).toBe(200);
    expect(await resolve(withCookie(cookie), {})).toBeNull();
  });

  it("serves the user's new fields once the user row changed", async () => {
    const clock = manualClock();
    const resolve = sessionIdentity(auth, { cache: { clock: clock.now } });
    const { cookie, userId } = await signedIn("renamed");
    await resolve(withCookie(cookie), {});
    await env.DB.prepare(`UPDATE "user" SET "name" = 'New Name' WHERE "id" = ?`).bind(userId).run();
    clock.advance(500);
    expect(await resolve(withCookie(cookie), {})).toMatchObject({ user: { name: "New Name" } });
  });

  it("never serves one caller's identity to other credentials, and never caches anonymity", async () => {
    const resolve = sessionIdentity(auth);
    const first = await signedIn("first");
    const second = await signedIn("second");
    expect(await resolve(withCookie(first.cookie), {})).toMatchObject({ userId: first.userId });
    expect(await resolve(withCookie(second.cookie), {})).toMatchObject({ userId: second.userId });
    expect(await resolve(withCookie(`${first.cookie}x`), {})).toBeNull();
    expect(await resolve(new Request(TEST_ORIGIN), {})).toBeNull();
  });

  it("hands out copies: a caller changing its identity does not change the cached one", async () => {
    const resolve = sessionIdentity(auth);
    const { cookie, userId } = await signedIn("copy");
    const first = await resolve(withCookie(cookie), {});
    (first as { userId: string }).userId = "someone-else";
    expect(await resolve(withCookie(cookie), {})).toMatchObject({ userId });
  });

  it("keeps at most maxEntries identities, dropping the least recently used", async () => {
    const source = counted();
    const resolve = sessionIdentity(source, { cache: { maxEntries: 1 } });
    const older = await signedIn("older");
    const newer = await signedIn("newer");
    await resolve(withCookie(older.cookie), {});
    await resolve(withCookie(newer.cookie), {});
    await resolve(withCookie(newer.cookie), {});
    expect(source.calls).toBe(2);
    await resolve(withCookie(older.cookie), {});
    expect(source.calls).toBe(3);
  });

  it("asks every time with cache: false", async () => {
    const source = counted();
    const resolve = sessionIdentity(source, { cache: false });
    const { cookie } = await signedIn("uncached");
    await resolve(withCookie(cookie), {});
    await resolve(withCookie(cookie), {});
    expect(source.calls).toBe(2);
  });

  it("without a revocation log asks every time by default, and keeps for ttlMs only when asked to", async () => {
    const elsewhere = { ...auth.options, database: { kind: "another adapter" } };
    const { cookie, userId } = await signedIn("no-log");
    const byDefault = counted(elsewhere);
    await sessionIdentity(byDefault)(withCookie(cookie), {});
    await sessionIdentity(byDefault)(withCookie(cookie), {});
    expect(byDefault.calls).toBe(2);

    const clock = manualClock();
    const explicit = counted(elsewhere);
    const resolve = sessionIdentity(explicit, { cache: { ttlMs: 10_000, clock: clock.now } });
    await resolve(withCookie(cookie), {});
    expect((await authPost("/sign-out", {}, { cookie })).status).toBe(200);
    // The trade of an explicit cache without a log: the session lives on for ttlMs.
    expect(await resolve(withCookie(cookie), {})).toMatchObject({ userId });
    clock.advance(10_000);
    expect(await resolve(withCookie(cookie), {})).toBeNull();
    expect(explicit.calls).toBe(2);
  });

  it("decides per auth instance: one resolver over two instances caches only where the log is", async () => {
    const { cookie, userId } = await signedIn("per-instance");
    const withLog = counted();
    const withoutLog = counted({ ...auth.options, database: { kind: "another adapter" } });
    // An auth chosen per env: each instance keeps its own decision, made once and remembered.
    const resolve = sessionIdentity<{ logged: boolean }>((env) =>
      env.logged ? withLog : withoutLog,
    );
    for (let call = 0; call < 3; call++) {
      expect(await resolve(withCookie(cookie), { logged: true })).toMatchObject({ userId });
      expect(await resolve(withCookie(cookie), { logged: false })).toMatchObject({ userId });
    }
    expect(withLog.calls).toBe(1);
    expect(withoutLog.calls).toBe(3);
  });

  it("refuses settings that are not positive", () => {
    expect(() => sessionIdentity(auth, { cache: { ttlMs: 0 } })).toThrow(/ttlMs/);
    expect(() => sessionIdentity(auth, { cache: { maxEntries: 0 } })).toThrow(/maxEntries/);
    expect(() => sessionIdentity(auth, { cache: { revocationMs: -1 } })).toThrow(/revocationMs/);
  });
});
