import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureMigrated } from "../src/index.ts";
import { ADMIN_TOKENS } from "./fixture/admin.ts";
import { bulkAdmin } from "./fixture/admin-bulk.ts";
import { TEST_ORIGIN } from "./fixture/constants.ts";

const USERS = 100_000;
const PASSWORD = "original-password-1";
const source = bulkAdmin(env.ADMIN_EXPORT);
const target = bulkAdmin(env.ADMIN_IMPORT);

function admin(side: typeof source, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${ADMIN_TOKENS.ci}`);
  return side.worker.fetch(
    new Request(`${TEST_ORIGIN}/_svc/admin/auth/${path}`, { ...init, headers }),
    env,
    createExecutionContext(),
  );
}

async function importChunk(body: string, type: string, dryRun = false) {
  const response = await admin(target, `users/import${dryRun ? "?dryRun=true" : ""}`, {
    method: "POST",
    headers: { "content-type": type },
    body,
  });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return JSON.parse(text) as {
    created: number;
    valid: number;
    skipped: number;
    invalid: number;
    results: { index: number; status: string; errors?: { field: string; message: string }[] }[];
  };
}

function authPost(side: typeof source, endpoint: string, body: unknown): Promise<Response> {
  return side.auth.handler(
    new Request(`${TEST_ORIGIN}/api/auth/${endpoint}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: TEST_ORIGIN },
      body: JSON.stringify(body),
    }),
  );
}

let sampled: { id: string; email: string };

beforeAll(async () => {
  await ensureMigrated(source.auth);
  await ensureMigrated(target.auth);
  // One user signed up through better-auth (a real password hash), the rest seeded in bulk.
  const email = "sampled@export.test";
  const signUp = await authPost(source, "sign-up/email", {
    email,
    password: PASSWORD,
    name: "Sampled",
  });
  expect(signUp.status, await signUp.clone().text()).toBe(200);
  const { user } = (await signUp.json()) as { user: { id: string } };
  sampled = { id: user.id, email };
  const db = env.ADMIN_EXPORT;
  const statements = [];
  for (let from = 0; from < USERS - 1; from += 250) {
    const rows: string[] = [];
    for (let i = from; i < Math.min(from + 250, USERS - 1); i++) {
      const n = String(i).padStart(6, "0");
      const created = new Date(Date.parse("2025-01-01T00:00:00.000Z") + i * 1000).toISOString();
      rows.push(
        `('x${n}', '${i % 3 === 0 ? `=SUM(${i})` : `Person, ${i} "the second"`}', 'person-${n}@export.test', 1, '${created}', '${created}', '${i % 100 === 0 ? "admin" : "user"}', 0, 'handle${n}')`,
      );
    }
    statements.push(
      db.prepare(
        `INSERT INTO "user" ("id", "name", "email", "emailVerified", "createdAt", "updatedAt", "role", "banned", "username") VALUES ${rows.join(", ")}`,
      ),
    );
  }
  for (let i = 0; i < statements.length; i += 50) await db.batch(statements.slice(i, i + 50));
}, 120_000);

describe("export and import", () => {
  it("streams 100,000 users out and into an empty database, where a user signs in with the original password", {
    timeout: 300_000,
  }, async () => {
    const response = await admin(source, "users/export?format=json&passwordHashes=true");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="users-\d{4}-\d\d-\d\d\.json"$/,
    );
    // Read as a stream: it arrives in many chunks, not one buffered body.
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    let chunks = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks++;
      text += decoder.decode(value, { stream: true });
    }
    const users = JSON.parse(text) as Record<string, unknown>[];
    expect(users).toHaveLength(USERS);
    expect(chunks).toBeGreaterThanOrEqual(USERS / 1000);
    expect(new Set(users.map((user) => user.id)).size).toBe(USERS);
    const exported = users.find((user) => user.email === sampled.email)!;
    expect(exported.passwordHash).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
    expect(users.filter((user) => typeof user.passwordHash === "string")).toHaveLength(1);

    let created = 0;
    for (let i = 0; i < users.length; i += 500) {
      const report = await importChunk(JSON.stringify(users.slice(i, i + 500)), "application/json");
      created += report.created;
      expect(
        report.invalid + report.skipped,
        JSON.stringify(report.results.find((r) => r.errors)),
      ).toBe(0);
    }
    expect(created).toBe(USERS);
    const counted = await env.ADMIN_IMPORT.prepare('SELECT COUNT(*) AS n FROM "user"').first<{
      n: number;
    }>();
    expect(counted?.n).toBe(USERS);
    const copy = await env.ADMIN_IMPORT.prepare(
      'SELECT id, "createdAt", name FROM "user" WHERE id = ?',
    )
      .bind("x000003")
      .first<{ id: string; createdAt: string; name: string }>();
    expect(copy).toEqual({
      id: "x000003",
      createdAt: "2025-01-01T00:00:03.000Z",
      name: "=SUM(3)",
    });

    const signIn = await authPost(target, "sign-in/email", {
      email: sampled.email,
      password: PASSWORD,
    });
    expect(signIn.status, await signIn.clone().text()).toBe(200);
    expect(((await signIn.json()) as { user: { id: string } }).user.id).toBe(sampled.id);
    const wrong = await authPost(target, "sign-in/email", {
      email: sampled.email,
      password: "not-the-password",
    });
    expect(wrong.status).toBe(401);

    // The imported users are searchable at once: the triggers filled the search index.
    const found = await admin(target, "users?search=person-054321");
    expect(((await found.json()) as { total: number }).total).toBe(1);
  });

  it("exports filtered CSV that a spreadsheet cannot run, and reads it back: existing users are skipped", async () => {
    const response = await admin(source, "users/export?format=csv&role=admin");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const csv = await response.text();
    const lines = csv.trimEnd().split("\r\n");
    expect(lines[0]).toBe(
      "id,email,name,emailVerified,image,role,banned,banReason,banExpires,username,displayUsername,phoneNumber,phoneNumberVerified,createdAt,updatedAt",
    );
    expect(lines).toHaveLength(1 + 1000);
    expect(csv).not.toContain("passwordHash");
    // A name starting with "=" is guarded; one with a comma and quotes is quoted.
    expect(lines[1]).toContain(",'=SUM(0),");
    expect(csv).not.toMatch(/(^|,)=/m);
    const report = await importChunk(lines.slice(0, 401).join("\r\n"), "text/csv", true);
    expect(report).toMatchObject({ created: 0, valid: 0, skipped: 400, invalid: 0 });
    const quoted = await admin(source, "users/export?format=csv&search=person, 1 ");
    expect((await quoted.text()).split("\r\n")[1]).toContain(`"Person, 1 ""the second"""`);
  });

  it("reports each bad row with its fields and still imports the good ones", async () => {
    const rows = [
      { email: "not-an-email", name: "" },
      { email: "ok-1@import.test", name: "Ok", role: "superuser" },
      { email: "ok-2@import.test", name: "Ok", passwordHash: "plain-text-password" },
      { id: "fresh-1", email: "fresh-1@import.test", name: "Fresh", createdAt: "2024-02-03" },
      { id: "fresh-2", email: "FRESH-1@import.test", name: "Same email" },
    ];
    const dry = await importChunk(JSON.stringify({ users: rows }), "application/json", true);
    expect(dry).toMatchObject({ created: 0, valid: 1, skipped: 1, invalid: 3 });
    expect(
      await env.ADMIN_IMPORT.prepare('SELECT id FROM "user" WHERE id = ?').bind("fresh-1").first(),
    ).toBeNull();
    const report = await importChunk(JSON.stringify(rows), "application/json");
    expect(report).toMatchObject({ created: 1, valid: 0, skipped: 1, invalid: 3 });
    expect(report.results.map((row) => row.status)).toEqual([
      "invalid",
      "invalid",
      "invalid",
      "created",
      "skipped",
    ]);
    expect(report.results[0]?.errors?.map((error) => error.field)).toEqual(["email", "name"]);
    expect(report.results[1]?.errors?.[0]?.message).toMatch(/unknown role "superuser"/);
    expect(report.results[2]?.errors?.[0]).toMatchObject({ field: "passwordHash" });
    expect(report.results[4]?.errors?.[0]).toMatchObject({ field: "email" });
    const fresh = await env.ADMIN_IMPORT.prepare('SELECT "createdAt" FROM "user" WHERE id = ?')
      .bind("fresh-1")
      .first();
    expect(fresh).toEqual({ createdAt: "2024-02-03T00:00:00.000Z" });
    const audit = await env.ADMIN_IMPORT.prepare(
      `SELECT action, outcome, detail FROM "svcAdminAudit" WHERE action = 'user.import' ORDER BY at DESC LIMIT 1`,
    ).first();
    expect(audit).toEqual({
      action: "user.import",
      outcome: "ok",
      detail: "5 rows: 1 created, 1 skipped, 3 invalid",
    });
  });

  it("refuses a body it cannot read, and more rows than one request takes, with nothing written", async () => {
    for (const [body, type, message] of [
      ["{", "application/json", /not valid JSON/],
      ['"users"', "application/json", /array of user objects/],
      ['id,email\r\n"open', "text/csv", /quoted cell is not closed/],
      ["<users/>", "application/xml", /JSON .* or CSV/],
      [
        JSON.stringify(
          Array.from({ length: 501 }, (_, i) => ({ email: `many-${i}@x.test`, name: "M" })),
        ),
        "application/json",
        /At most 500 users/,
      ],
    ] as const) {
      const response = await admin(target, "users/import", {
        method: "POST",
        headers: { "content-type": type },
        body,
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { detail: string }).detail).toMatch(message);
    }
    expect(
      await env.ADMIN_IMPORT.prepare(`SELECT id FROM "user" WHERE email = 'many-0@x.test'`).first(),
    ).toBeNull();
  });
});
