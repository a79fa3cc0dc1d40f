import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { adminFetch, adminJson, signIn, signUp } from "./admin-http.ts";
import { ADMIN_AUTH_BASE } from "./fixture/admin.ts";
import { TEST_ORIGIN } from "./fixture/constants.ts";
import { freshEmail } from "./http.ts";

const PASSWORD = "correct-password-1";

interface ListedUser {
  id: string;
  email: string;
  lastSignInAt: string | null;
  lastActiveAt: string | null;
}

interface Page {
  users: ListedUser[];
  total: number;
  nextCursor: string | null;
}

async function detail(id: string): Promise<ListedUser> {
  return (await adminJson<{ user: ListedUser }>("GET", `users/${id}`, 200)).user;
}

/** Every page of `GET users?<query>`, `limit` at a time. */
async function walk(query: string, limit: number): Promise<ListedUser[]> {
  const users: ListedUser[] = [];
  let cursor: string | null = null;
  do {
    const page: Page = await adminJson<Page>(
      "GET",
      `users?${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      200,
    );
    users.push(...page.users);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return users;
}

/** better-auth's own `GET /get-session` with a bearer token: what refreshes a session. */
async function getSession(token: string): Promise<void> {
  const response = await exports.default.fetch(`${TEST_ORIGIN}${ADMIN_AUTH_BASE}/get-session`, {
    headers: { authorization: `Bearer ${token}`, origin: TEST_ORIGIN },
  });
  expect(response.status).toBe(200);
}

/** Makes the sessions matching `where` due for better-auth's refresh (`session.updateAge`). */
async function makeDue(where: string, ...binds: string[]): Promise<void> {
  await env.ADMIN_DB.prepare(`UPDATE "session" SET "expiresAt" = ? WHERE ${where}`)
    .bind(new Date(Date.now() + 3_600_000).toISOString(), ...binds)
    .run();
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("lastSignInAt / lastActiveAt", () => {
  it("are null before any sign-in, both set by a sign-in, and only lastActive raised by a refresh", async () => {
    const email = freshEmail("activity");
    const started = Date.now();
    const id = await signUp(email, PASSWORD);
    // better-auth's sign-up signs the user in: that session counts. Clear it to see "never".
    await env.ADMIN_DB.prepare(
      `UPDATE "svc_user_activity" SET "lastSignInAt" = '', "lastActiveAt" = '' WHERE "userId" = ?`,
    )
      .bind(id)
      .run();
    const never = await detail(id);
    expect(never).toMatchObject({ lastSignInAt: null, lastActiveAt: null });
    // Still the allow-listed shape: the two times and nothing else of the activity table.
    expect(Object.keys(never).sort()).toEqual(
      [
        ...["id", "email", "name", "emailVerified", "image", "role", "banned", "banReason"],
        ...["banExpires", "username", "displayUsername", "twoFactorEnabled", "phoneNumber"],
        ...["phoneNumberVerified", "isAnonymous", "createdAt", "updatedAt"],
        ...["lastSignInAt", "lastActiveAt"],
      ].sort(),
    );

    const { token } = await signIn(email, PASSWORD);
    const signedIn = await detail(id);
    expect(signedIn.lastSignInAt).not.toBeNull();
    expect(signedIn.lastActiveAt).toBe(signedIn.lastSignInAt);
    expect(Date.parse(signedIn.lastSignInAt!)).toBeGreaterThanOrEqual(started - 1000);
    const listed = await adminJson<Page>("GET", `users?search=${encodeURIComponent(email)}`, 200);
    expect(listed.users[0]).toMatchObject({ id, lastSignInAt: signedIn.lastSignInAt });

    // Make the session due for better-auth's refresh (updateAge), then use it.
    await pause(5);
    await makeDue(`"userId" = ?`, id);
    await getSession(token!);
    const refreshed = await detail(id);
    expect(refreshed.lastSignInAt).toBe(signedIn.lastSignInAt);
    expect(Date.parse(refreshed.lastActiveAt!)).toBeGreaterThan(Date.parse(signedIn.lastActiveAt!));
  });

  it("do not move for an impersonation, its use or its refresh", async () => {
    const email = freshEmail("activity-imp");
    const id = await signUp(email, PASSWORD);
    const before = await detail(id);
    expect(before.lastSignInAt).not.toBeNull();
    await pause(5);
    const { token } = await adminJson<{ token: string }>("POST", `users/${id}/impersonate`, 200, {
      body: { reason: "ticket 17" },
    });
    await makeDue(`"userId" = ? AND "impersonatedBy" IS NOT NULL`, id);
    const updatedAt = () =>
      env.ADMIN_DB.prepare(
        `SELECT "updatedAt" FROM "session" WHERE "userId" = ? AND "impersonatedBy" IS NOT NULL`,
      )
        .bind(id)
        .first<string>("updatedAt");
    const created = await updatedAt();
    await pause(5);
    await getSession(token);
    // better-auth did refresh the impersonation session…
    expect(Date.parse((await updatedAt())!)).toBeGreaterThan(Date.parse(created!));
    // …and neither time moved.
    const after = await detail(id);
    expect(after.lastSignInAt).toBe(before.lastSignInAt);
    expect(after.lastActiveAt).toBe(before.lastActiveAt);
  });

  it("sort both ways, never-signed-in users last when newest first and first when oldest first, each user once across pages", async () => {
    const tag = `sortact${crypto.randomUUID().slice(0, 8)}`;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(await signUp(freshEmail(`${tag}-${i}`), PASSWORD, `${tag} ${i}`));
      await pause(3);
    }
    // Users 3 and 4 never signed in; user 0 signs in again last: the most recent.
    await env.ADMIN_DB.prepare(
      `UPDATE "svc_user_activity" SET "lastSignInAt" = '', "lastActiveAt" = '' WHERE "userId" IN (?, ?)`,
    )
      .bind(ids[3], ids[4])
      .run();
    const zero = (await detail(ids[0]!)).email;
    await signIn(zero, PASSWORD);
    const newestFirst = [ids[0], ids[2], ids[1], ...[ids[3], ids[4]].sort().reverse()];

    for (const sort of ["lastSignIn", "lastActive"]) {
      // Few matches: found through the search index, then sorted.
      const desc = await walk(`search=${tag}&sort=${sort}`, 2);
      expect(desc.map((user) => user.id)).toEqual(newestFirst);
      expect(desc.slice(3).every((user) => user.lastSignInAt === null)).toBe(true);
      const asc = await walk(`search=${tag}&sort=${sort}&order=asc`, 2);
      expect(asc.map((user) => user.id)).toEqual([...newestFirst].reverse());

      // Unfiltered: a walk of the activity index over every user in the database.
      for (const order of ["asc", "desc"] as const) {
        const all = await walk(`sort=${sort}&order=${order}`, 7);
        const seen = all.map((user) => user.id);
        expect(new Set(seen).size).toBe(seen.length);
        const { total } = await adminJson<Page>("GET", "users?limit=1", 200);
        expect(seen.length).toBe(total);
        const field = sort === "lastSignIn" ? "lastSignInAt" : "lastActiveAt";
        const keys = all.map((user) => user[field] ?? "");
        const sorted = [...keys].sort();
        expect(keys).toEqual(order === "asc" ? sorted : sorted.reverse());
        const mine = seen.filter((userId) => ids.includes(userId));
        expect(mine).toEqual(order === "desc" ? newestFirst : [...newestFirst].reverse());
      }
    }
  });

  it("combine with the role and banned filters", async () => {
    const tag = `rolact${crypto.randomUUID().slice(0, 8)}`;
    const first = await signUp(freshEmail(`${tag}-a`), PASSWORD, `${tag} a`);
    await pause(3);
    const second = await signUp(freshEmail(`${tag}-b`), PASSWORD, `${tag} b`);
    await adminJson("POST", `users/${second}/ban`, 200, { body: { reason: "spam" } });
    const banned = await walk(`search=${tag}&banned=true&sort=lastActive`, 10);
    expect(banned.map((user) => user.id)).toEqual([second]);
    const notBanned = await walk(`search=${tag}&banned=false&role=user&sort=lastSignIn`, 10);
    expect(notBanned.map((user) => user.id)).toEqual([first]);
    const bannedWalk = await walk("banned=true&sort=lastActive", 50);
    expect(bannedWalk.map((user) => user.id)).toContain(second);
    expect(bannedWalk.map((user) => user.id)).not.toContain(first);
  });

  it("refuses a cursor of another sort, and an unknown sort", async () => {
    const page = await adminJson<Page>("GET", "users?sort=lastActive&limit=1", 200);
    expect(page.nextCursor).not.toBeNull();
    const wrong = await adminFetch(
      "GET",
      `users?sort=lastSignIn&limit=1&cursor=${encodeURIComponent(page.nextCursor!)}`,
    );
    expect(wrong.status).toBe(400);
    expect((await adminFetch("GET", "users?sort=lastSeen")).status).toBe(400);
  });

  it("lose the user's row when the user is deleted", async () => {
    const id = await signUp(freshEmail("activity-del"), PASSWORD);
    const row = () =>
      env.ADMIN_DB.prepare(`SELECT "userId" FROM "svc_user_activity" WHERE "userId" = ?`)
        .bind(id)
        .first();
    expect(await row()).not.toBeNull();
    await adminJson("DELETE", `users/${id}`, 200);
    expect(await row()).toBeNull();
  });
});
