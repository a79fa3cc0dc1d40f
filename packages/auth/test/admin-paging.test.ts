import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { D1_BOOKMARK_HEADER } from "../src/admin/contract/index.ts";
import { ensureMigrated } from "../src/index.ts";
import { ADMIN_TOKENS } from "./fixture/admin.ts";
import { bulkAdmin } from "./fixture/admin-bulk.ts";
import { TEST_ORIGIN } from "./fixture/constants.ts";

const USERS = 10_000;
const db = env.ADMIN_BULK;
const { auth, worker } = bulkAdmin(db);
/** The same users behind an admin that counts broad matches exactly only up to 100. */
const EXACT_UP_TO = 100;
const capped = bulkAdmin(db, { totals: { exactUpTo: EXACT_UP_TO } }).worker;

interface Page {
  users: { id: string; email: string; name: string; createdAt: string; role: string }[];
  total: number;
  totalIsExact: boolean;
  nextCursor: string | null;
}

async function page(query: string, through = worker): Promise<Page> {
  const response = await through.fetch(
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
async function walk(query: string, through = worker) {
  const seen: Page["users"] = [];
  const totals = new Set<number>();
  let cursor: string | null = null;
  do {
    const answer: Page = await page(
      `${query}${cursor === null ? "" : `&cursor=${cursor}`}`,
      through,
    );
    seen.push(...answer.users);
    totals.add(answer.total);
    expect(answer.totalIsExact, query).toBe(true);
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
    const role = i % 10 === 0 ? "admin" : i % 10 === 1 ? "user,support" : "user";
    // Every 7th user banned: a third of those bans expired, a third expiring later, a third for good.
    const banned = i % 7 === 0 ? 1 : 0;
    const expires = [`'2020-01-01T00:00:00.000Z'`, `'2999-01-01T00:00:00.000Z'`, "NULL"][i % 3];
    rows.push(
      `('bulk-${n}', 'Name ${i % 97}', 'user-${n}@bulk.test', 0, '${created}', '${created}', '${role}', ${banned}, ${banned ? expires : "NULL"}, 'handle${n}')`,
    );
  }
  const statements = [];
  for (let i = 0; i < rows.length; i += 250) {
    statements.push(
      db.prepare(
        `INSERT INTO "user" ("id", "name", "email", "emailVerified", "createdAt", "updatedAt", "role", "banned", "banExpires", "username") VALUES ${rows.slice(i, i + 250).join(", ")}`,
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

  // 39 full walks (about 1,200 pages): 12–35 s on a shared two-core machine.
  it("answers every search, filter and sort exactly as their definition says, through either plan", {
    timeout: 90_000,
  }, async () => {
    // The reference: every user straight from D1, filtered and sorted here by the documented rules.
    const { results: everyone } = await db
      .prepare(
        'SELECT id, email, name, username, role, banned, "banExpires", "createdAt" FROM "user"',
      )
      .all<Record<string, string | number | null>>();
    const now = new Date().toISOString();
    const fold = (text: unknown) => String(text ?? "").replace(/[A-Z]/g, (c) => c.toLowerCase());
    const matches = (user: Record<string, unknown>, params: URLSearchParams) => {
      const search = params.get("search");
      if (search !== null) {
        const term = fold(search);
        if (
          !["email", "name", "username", "id"].some((field) => fold(user[field]).includes(term))
        ) {
          return false;
        }
      }
      const role = params.get("role");
      if (role !== null && !`,${user.role},`.includes(`,${role},`)) return false;
      const banned = params.get("banned");
      if (banned !== null) {
        const inForce =
          user.banned === 1 && (user.banExpires === null || String(user.banExpires) > now);
        if (inForce !== (banned === "true")) return false;
      }
      return true;
    };
    const columns = { created: "createdAt", email: "email", name: "name" } as const;
    for (const filter of [
      "search=user-01", // 1,000 matches: found through the search index, then sorted
      "search=BULK.TEST", // every user: the sort index is walked
      "search=Name 9", // name prefix shared by 11 names
      "search=e 4", // the end of a name and the start of a number
      "search=01", // two characters: scanned
      "search=bulk-00042", // an id
      "role=admin", // 1,000
      "role=support", // 1,000, inside "user,support"
      "role=user", // 9,000: the sort index is walked
      "banned=true", // bans in force only
      "banned=false",
      "role=admin&banned=true",
      "search=user-00&role=user&banned=false",
    ]) {
      for (const [sort, order] of [
        ["created", "desc"],
        ["email", "asc"],
        ["name", "desc"],
      ] as const) {
        const params = new URLSearchParams(filter);
        const column = columns[sort];
        const expected = everyone
          .filter((user) => matches(user, params))
          .sort((a, b) => {
            const [x, y] = [String(a[column]), String(b[column])];
            const byKey = x < y ? -1 : x > y ? 1 : String(a.id) < String(b.id) ? -1 : 1;
            return order === "asc" ? byKey : -byKey;
          })
          .map((user) => user.id);
        const { seen, totals } = await walk(
          `${params.toString()}&sort=${sort}&order=${order}&limit=100`,
        );
        expect(
          seen.map((user) => user.id),
          `${filter} by ${sort} ${order}`,
        ).toEqual(expected);
        expect([...totals], `${filter} total`).toEqual([expected.length]);
      }
    }
  });

  it("answers totals exactly where docs/admin-api.md promises, and as a lower bound elsewhere", async () => {
    const count = async (where: string) =>
      Number(
        (
          await db
            .prepare(`SELECT COUNT(*) AS n FROM "user" u WHERE ${where}`)
            .first<{ n: number }>()
        )?.n,
      );
    const now = `'${new Date().toISOString()}'`;
    const inForce = `u.banned = 1 AND (u."banExpires" IS NULL OR u."banExpires" > ${now})`;
    // Exact: no filter (the counter), a role or ban filter (their counters, or walked when small),
    // a search the search index finds up to 5,000 users for, and mixes with a small role or ban.
    for (const [query, where] of [
      ["", "1"],
      ["role=admin", "u.role = 'admin'"],
      ["role=user", "(u.role = 'user' OR u.role = 'user,support')"],
      ["banned=true", inForce],
      ["banned=false", `NOT (${inForce})`],
      ["role=support&banned=false", `u.role = 'user,support' AND NOT (${inForce})`],
      ["search=user-01", "u.email LIKE 'user-01%'"],
      ["search=user-0&role=admin", "u.email LIKE 'user-0%' AND u.role = 'admin'"],
    ] as const) {
      const answer = await page(`${query}&limit=10`, capped);
      expect({ query, total: answer.total, exact: answer.totalIsExact }).toEqual({
        query,
        total: await count(where),
        exact: true,
      });
    }
    // Capped: a search matching more than 5,000 users is counted in the search index up to the
    // bound; a two-character search, or a broad search with banned=false, tests at most
    // 2 × the bound users: a lower bound. Pages stay exact whatever the total says.
    const everyone = await page("search=BULK.TEST", capped);
    expect([everyone.total, everyone.totalIsExact]).toEqual([EXACT_UP_TO, false]);
    for (const [query, where] of [
      ["search=01", "(u.email LIKE '%01%' OR u.name LIKE '%01%' OR u.id LIKE '%01%')"],
      ["search=bulk&banned=false", `NOT (${inForce})`],
    ] as const) {
      const answer = await page(query, capped);
      expect(answer.totalIsExact, query).toBe(false);
      expect(answer.total, query).toBeLessThanOrEqual(Math.max(EXACT_UP_TO, 26));
      expect(answer.total, query).toBeGreaterThanOrEqual(answer.users.length + 1);
      expect(answer.total, query).toBeLessThan(await count(where));
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const answer: Page = await page(
        `search=01&limit=100${cursor === null ? "" : `&cursor=${cursor}`}`,
        capped,
      );
      seen.push(...answer.users.map((user) => user.id));
      cursor = answer.nextCursor;
    } while (cursor !== null);
    expect(new Set(seen).size).toBe(
      await count("(u.email LIKE '%01%' OR u.name LIKE '%01%' OR u.id LIKE '%01%')"),
    );
    expect(seen).toHaveLength(new Set(seen).size);
  });

  it("keeps the counters exact through role changes, bans and deletions", async () => {
    const before = await page("role=admin&limit=1");
    const [first, second] = ["bulk-00003", "bulk-00004"];
    await db.batch([
      db.prepare(`UPDATE "user" SET role = 'admin' WHERE id = ?`).bind(first),
      db.prepare(`UPDATE "user" SET banned = 1, "banExpires" = NULL WHERE id = ?`).bind(first),
      db.prepare(`DELETE FROM "user" WHERE id = ?`).bind(second),
    ]);
    const after = await page("role=admin&limit=1");
    expect(after.total - before.total).toBe(1);
    const counted = await db
      .prepare(`SELECT "key", "n" FROM svc_user_counts WHERE "key" IN ('users', 'banned')`)
      .all<{ key: string; n: number }>();
    const byKey = Object.fromEntries(counted.results.map((row) => [row.key, Number(row.n)]));
    expect(byKey).toEqual({
      users: Number(
        (await db.prepare(`SELECT COUNT(*) AS n FROM "user"`).first<{ n: number }>())?.n,
      ),
      banned: Number(
        (
          await db
            .prepare(`SELECT COUNT(*) AS n FROM "user" WHERE banned = 1`)
            .first<{ n: number }>()
        )?.n,
      ),
    });
    expect((await page("limit=1")).total).toBe(USERS - 1);
    const roles = await db
      .prepare(
        `SELECT substr("key", 6) AS role, "n" FROM svc_user_counts WHERE "key" LIKE 'role:%' AND "n" != 0 ORDER BY 1`,
      )
      .all<{ role: string; n: number }>();
    const grouped = await db
      .prepare(`SELECT coalesce(role, '') AS role, COUNT(*) AS n FROM "user" GROUP BY 1 ORDER BY 1`)
      .all<{ role: string; n: number }>();
    expect(roles.results).toEqual(grouped.results);
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

  it("reads through a D1 session, answering a bookmark that the next request can start from", async () => {
    const call = (method: string, path: string, headers: Record<string, string> = {}) =>
      worker.fetch(
        new Request(`${TEST_ORIGIN}/_svc/admin/auth/${path}`, {
          method,
          headers: {
            authorization: `Bearer ${ADMIN_TOKENS.ci}`,
            "content-type": "application/json",
            ...headers,
          },
          ...(method === "GET" ? {} : { body: JSON.stringify({ reason: "bookmark test" }) }),
        }),
        env,
        createExecutionContext(),
      );
    const read = await call("GET", "users?limit=1");
    expect(read.status).toBe(200);
    const first = read.headers.get(D1_BOOKMARK_HEADER);
    expect(first).toMatch(/^[0-9a-f]+(-[0-9a-f]+)+$/);
    // A write starts on the primary; its bookmark covers the write, and a read from it sees it.
    const banned = await call("POST", "users/bulk-00010/ban");
    expect(banned.status).toBe(200);
    const after = banned.headers.get(D1_BOOKMARK_HEADER)!;
    expect(after >= first!).toBe(true);
    const seen = await call("GET", "users/bulk-00010", { [D1_BOOKMARK_HEADER]: after });
    expect(seen.status).toBe(200);
    expect(await seen.json()).toMatchObject({ user: { id: "bulk-00010", banned: true } });
    expect(seen.headers.get(D1_BOOKMARK_HEADER)! >= after).toBe(true);
    // A header that is no bookmark is ignored rather than handed to D1.
    const odd = await call("GET", "users?limit=1", { [D1_BOOKMARK_HEADER]: "not a bookmark" });
    expect(odd.status).toBe(200);
  });
});
