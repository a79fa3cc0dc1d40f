import { describe, expect, it } from "vitest";
import { sessionIdentity } from "../src/index.ts";
import { auth } from "./fixture/auth.ts";
import { TEST_ORIGIN } from "./fixture/constants.ts";
import { authPost, cookieFrom, freshEmail } from "./http.ts";

const PASSWORD = "a long enough password";

async function signedIn(label: string): Promise<{ cookie: string; userId: string }> {
  const response = await authPost("/sign-up/email", {
    email: freshEmail(label),
    password: PASSWORD,
    name: label,
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { user: { id: string } };
  return { cookie: cookieFrom(response), userId: body.user.id };
}

const withCookie = (cookie: string) =>
  new Request(`${TEST_ORIGIN}/_svc/rpc`, { headers: { cookie } });

function manualClock() {
  let now = Date.now();
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe("sessionIdentity with cache", () => {
  it("serves a repeated credential from the cache until ttlMs, then asks better-auth again", async () => {
    const clock = manualClock();
    const resolve = sessionIdentity(auth, { cache: { ttlMs: 10_000, clock: clock.now } });
    const { cookie, userId } = await signedIn("cached");
    expect(await resolve(withCookie(cookie), {})).toMatchObject({ userId });

    // Signed out: better-auth no longer knows the session, the cache still does.
    expect((await authPost("/sign-out", {}, { cookie })).status).toBe(200);
    expect(await sessionIdentity(auth)(withCookie(cookie), {})).toBeNull();
    clock.advance(9_999);
    expect(await resolve(withCookie(cookie), {})).toMatchObject({ userId });

    clock.advance(2);
    expect(await resolve(withCookie(cookie), {})).toBeNull();
  });

  it("never serves one caller's identity to other credentials, and never caches anonymity", async () => {
    const resolve = sessionIdentity(auth, { cache: { ttlMs: 60_000 } });
    const first = await signedIn("first");
    const second = await signedIn("second");
    expect(await resolve(withCookie(first.cookie), {})).toMatchObject({ userId: first.userId });
    expect(await resolve(withCookie(second.cookie), {})).toMatchObject({ userId: second.userId });
    expect(await resolve(withCookie(`${first.cookie}x`), {})).toBeNull();
    expect(await resolve(new Request(TEST_ORIGIN), {})).toBeNull();
  });

  it("hands out copies: a caller changing its identity does not change the cached one", async () => {
    const resolve = sessionIdentity(auth, { cache: { ttlMs: 60_000 } });
    const { cookie, userId } = await signedIn("copy");
    const first = await resolve(withCookie(cookie), {});
    (first as { userId: string }).userId = "someone-else";
    expect(await resolve(withCookie(cookie), {})).toMatchObject({ userId });
  });

  it("keeps at most maxEntries identities, dropping the oldest", async () => {
    const resolve = sessionIdentity(auth, { cache: { ttlMs: 60_000, maxEntries: 1 } });
    const older = await signedIn("older");
    const newer = await signedIn("newer");
    await resolve(withCookie(older.cookie), {});
    await resolve(withCookie(newer.cookie), {});
    await authPost("/sign-out", {}, { cookie: older.cookie });
    await authPost("/sign-out", {}, { cookie: newer.cookie });
    // The older entry was dropped when the newer came in, so better-auth is asked again;
    // the newer one is still served from the cache.
    expect(await resolve(withCookie(older.cookie), {})).toBeNull();
    expect(await resolve(withCookie(newer.cookie), {})).toMatchObject({ userId: newer.userId });
  });

  it("refuses a cache without a positive ttlMs or maxEntries", () => {
    expect(() => sessionIdentity(auth, { cache: { ttlMs: 0 } })).toThrow(/ttlMs/);
    expect(() => sessionIdentity(auth, { cache: { ttlMs: 1_000, maxEntries: 0 } })).toThrow(
      /maxEntries/,
    );
  });
});
