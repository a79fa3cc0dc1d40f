import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { adminJson, signIn, signUp } from "./admin-http.ts";
import { freshEmail } from "./http.ts";

const DAY = 86_400_000;

interface Overview {
  totals: {
    users: number;
    emailVerified: number;
    banned: number | null;
    organizations: number | null;
  };
  signUps: { day: string; count: number }[];
  activeUsers: { last24Hours: number; last7Days: number; last30Days: number };
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe("GET overview", () => {
  it("counts users, bans, sign-ups per day and active users as they happen", async () => {
    const before = await adminJson<Overview>("GET", "overview?days=7", 200);
    expect(before.signUps.map((entry) => entry.day)).toEqual(
      Array.from({ length: 7 }, (_, index) => dayOf(Date.now() - (6 - index) * DAY)),
    );

    const email = freshEmail("overview");
    const id = await signUp(email, "overview-password-1");
    await signIn(email, "overview-password-1");
    const banned = await signUp(freshEmail("overview-banned"), "overview-password-1");
    await adminJson("POST", `users/${banned}/ban`, 200, { body: { reason: "test" } });
    // A user who signed up three days ago and was last seen ten days ago.
    const old = crypto.randomUUID();
    const threeDaysAgo = new Date(Date.now() - 3 * DAY).toISOString();
    await env.ADMIN_DB.prepare(
      `INSERT INTO "user" ("id", "name", "email", "emailVerified", "createdAt", "updatedAt") VALUES (?, 'Old', ?, 1, ?, ?)`,
    )
      .bind(old, freshEmail("overview-old"), threeDaysAgo, threeDaysAgo)
      .run();
    const tenDaysAgo = new Date(Date.now() - 10 * DAY).toISOString();
    await env.ADMIN_DB.prepare(
      `INSERT INTO "session" ("id", "token", "userId", "expiresAt", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?)`,
    )
      .bind(
        crypto.randomUUID(),
        crypto.randomUUID(),
        old,
        new Date(Date.now() + DAY).toISOString(),
        tenDaysAgo,
        tenDaysAgo,
      )
      .run();

    const after = await adminJson<Overview>("GET", "overview?days=7", 200);
    expect(after.totals.users - before.totals.users).toBe(3);
    expect(after.totals.emailVerified - before.totals.emailVerified).toBe(1);
    expect((after.totals.banned ?? 0) - (before.totals.banned ?? 0)).toBe(1);
    const countOn = (overview: Overview, ms: number) =>
      overview.signUps.find((entry) => entry.day === dayOf(ms))?.count ?? 0;
    expect(countOn(after, Date.now()) - countOn(before, Date.now())).toBe(2);
    expect(countOn(after, Date.now() - 3 * DAY) - countOn(before, Date.now() - 3 * DAY)).toBe(1);
    // Active means last activity: the one who signed in and the banned one (signed up today, a
    // sign-in too) within the day; the old user ten days ago, inside 30 days only.
    expect(after.activeUsers.last24Hours - before.activeUsers.last24Hours).toBe(2);
    expect(after.activeUsers.last7Days - before.activeUsers.last7Days).toBe(2);
    expect(after.activeUsers.last30Days - before.activeUsers.last30Days).toBe(3);
    expect(id).toBeTruthy();
  });

  // The statements of getOverview, as it issues them.
  it("answers from indexes: no statement scans the user or session rows", async () => {
    // Bound, as the route binds them: a literal would let SQLite plan for that one value.
    const since = new Date(Date.now() - 30 * DAY).toISOString();
    const plan = async (sql: string) =>
      (
        await env.ADMIN_DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
          .bind(since)
          .all<{ detail: string }>()
      ).results
        .map((row) => row.detail)
        .join("; ");
    expect(
      await plan(
        `SELECT COUNT(DISTINCT "userId") FROM "session" INDEXED BY svc_session_updated_idx WHERE "updatedAt" >= ?`,
      ),
    ).toMatch(/USING COVERING INDEX svc_session_updated_idx/);
    expect(
      await plan(
        `SELECT substr("createdAt", 1, 10) AS day, COUNT(*) FROM "user" WHERE "createdAt" >= ? GROUP BY day`,
      ),
    ).toMatch(/USING COVERING INDEX svc_user_created_idx/);
    expect(
      await plan(
        `SELECT COUNT(*) FROM "user" WHERE "banned" = 1 AND ("banExpires" IS NULL OR "banExpires" > ?)`,
      ),
    ).toMatch(/USING COVERING INDEX svc_user_banned_idx/);
  });

  it("refuses a window it does not offer", async () => {
    expect(await adminJson("GET", "overview?days=0", 400)).toMatchObject({
      errors: [{ path: "query.days", message: "must be an integer from 1 to 90" }],
    });
    await adminJson("GET", "overview?days=91", 400);
  });
});
