import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureMigrated } from "../src/index.ts";
import { ADMIN_TOKENS } from "./fixture/admin.ts";
import { bulkAdmin } from "./fixture/admin-bulk.ts";
import { TEST_ORIGIN } from "./fixture/constants.ts";

const USERS = 10_000;
const db = env.ADMIN_BULK;
const { auth, worker } = bulkAdmin(db);

interface Page {
  users: { id: string; email: string; name: string; createdAt: string; role: string }[];
  total: number;
  nextCursor: string | null;
}

async function page(query: string): Promise<Page> {
  const response = await worker.fetch(
    new Request(`${TEST_ORIGIN}/_svc/admin/auth/users?${query}`, {
      headers: { authorization: `Bearer ${ADMIN_TOKENS.ci}` },
    }),
    env,
    createExecutionContext(),
  );
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return JSON.parse(text) as Page;
}

/** Follows `nextCursor` to the end; returns every user seen and the totals each page reported. */
async function walk(query: string) {
  const seen: Page["users"] = [];
  const totals = new Set<number>();
  let cursor: string | null = null;
  do {
    const answer: Page = await page(`${query}${cursor === null ? "" : `&cursor=${cursor}`}`);
    seen.push(...answer.users);
    totals.add(answer.total);
    cursor = answer.nextCursor;
  } while (cursor !== null);
  return { seen, totals };
}

/**
 * Seeds the users with one multi-row INSERT per 250 rows, all in one D1 batch
 * (well under a second). Every third user shares its creation time with the
 * next, and names repeat every 97 users, so the order's tie-breaker is tested.
 */
async function seed(): Promise<void> {
  const start = Date.parse("2026-01-01T00:00:00.000Z");
  const rows: string[] = [];
  for (let i = 0; i < USERS; i++) {
    const created = new Date(start + Math.floor(i / 2) * 1000).toISOString();
    const n = String(i).padStart(5, "0");
    const role = i % 10 === 0 ? "admin" : "user";
    rows.push(
      `('bulk-${n}', 'Name ${i % 97}', 'user-${n}@bulk.test', 0, '${created}', '${created}', '${role}', 0, 'handle${n}')`,
    );
  }
  const statements = [];
  for (let i = 0; i < rows.length; i += 250) {
    statements.push(
      db.prepare(
        `INSERT INTO "user" ("id", "name", "email", "emailVerified", "createdAt", "updatedAt", "role", "banned", "username") VALUES ${rows.slice(i, i + 250).join(", ")}`,
      ),
    );
  }
  await db.batch(statements);
}

beforeAll(async () => {
  await ensureMigrated(auth);
  await seed();
});

describe(`listing ${USERS.toLocaleString("en")} users`, () => {
  it.each([
    [
      "newest first (default)",
      "limit=100",
      (a: Page["users"][0], b: Page["users"][0]) => a.createdAt >= b.createdAt,
    ],
    [
      "by email",
      "sort=email&order=asc&limit=100",
      (a: Page["users"][0], b: Page["users"][0]) => a.email < b.email,
    ],
    [
      "by name, descending",
      "sort=name&order=desc&limit=97",
      (a: Page["users"][0], b: Page["users"][0]) => a.name >= b.name,
    ],
  ])("pages through every user exactly once, in order: %s", async (_name, query, ordered) => {
    const { seen, totals } = await walk(query);
    expect(seen).toHaveLength(USERS);
    expect(new Set(seen.map((user) => user.id)).size).toBe(USERS);
    expect([...totals]).toEqual([USERS]);
    for (let i = 1; i < seen.length; i++) expect(ordered(seen[i - 1]!, seen[i]!)).toBe(true);
  });

  it("pages through a search and a filter exactly once, with their totals", async () => {
    const search = await walk("search=USER-01&limit=100");
    expect(search.seen).toHaveLength(1000); // user-01000 … user-01999
    expect([...search.totals]).toEqual([1000]);
    const admins = await walk("role=admin&limit=100");
    expect(admins.seen).toHaveLength(1000);
    expect(new Set(admins.seen.map((user) => user.role))).toEqual(new Set(["admin"]));
    const byUsername = await page("search=handle00042");
    expect(byUsername.users.map((user) => user.id)).toEqual(["bulk-00042"]);
  });

  it("refuses a cursor of another order instead of skipping rows", async () => {
    const first = await page("sort=email&limit=10");
    const response = await worker.fetch(
      new Request(`${TEST_ORIGIN}/_svc/admin/auth/users?sort=name&cursor=${first.nextCursor}`, {
        headers: { authorization: `Bearer ${ADMIN_TOKENS.ci}` },
      }),
      env,
      createExecutionContext(),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: "VALIDATION_FAILED",
      errors: [{ path: "query.cursor" }],
    });
  });
});
