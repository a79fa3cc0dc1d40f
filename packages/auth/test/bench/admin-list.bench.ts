/**
 * Latency of the admin user list over 100,000 users, in workerd with local
 * D1 (SQLite through miniflare): each request goes through `createWorker`'s
 * admin gate to `createAuthAdmin`, like a dashboard's. The baseline, measured
 * in the same run, is the very SQL that request issued, run straight on the
 * D1 binding: the ratio is what svc adds on top of the database. Each case
 * also records SQLite's plan (`EXPLAIN QUERY PLAN`) for its statements.
 *
 * Run: `npm run bench:admin -w @svc/auth` (`USERS=… ROUNDS=…` to change
 * sizes). Prints a table, then one `SVC_BENCH_RESULT {json}` line that
 * `npm run bench` (bench/scenarios/admin.ts) reads.
 */
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { ensureMigrated } from "../../src/index.ts";
import { ADMIN_TOKENS } from "../fixture/admin.ts";
import { bulkAdmin } from "../fixture/admin-bulk.ts";
import { TEST_ORIGIN } from "../fixture/constants.ts";
import { RecordingD1 } from "../fixture/recording-d1.ts";

const USERS = Number(env.BENCH_USERS ?? 100_000);
const ROUNDS = Number(env.BENCH_ROUNDS ?? 15);
const db = env.ADMIN_BULK;
/** Sees the statements of each request as the admin surface prepared and bound them. */
const recorder = new RecordingD1(db);
const issued = recorder.statements;
const { auth, worker } = bulkAdmin(recorder);

async function get(path: string): Promise<{
  ms: number;
  body: { nextCursor?: string | null; total?: number; totalIsExact?: boolean };
}> {
  issued.length = 0;
  const started = performance.now();
  const response = await worker.fetch(
    new Request(`${TEST_ORIGIN}/_svc/admin/auth/${path}`, {
      headers: { authorization: `Bearer ${ADMIN_TOKENS.ci}` },
    }),
    env,
    createExecutionContext(),
  );
  const body = (await response.json()) as {
    nextCursor?: string | null;
    total?: number;
    totalIsExact?: boolean;
  };
  const ms = performance.now() - started;
  expect(response.status, JSON.stringify(body)).toBe(200);
  return { ms, body };
}

/** Users signed up evenly over the last 60 days, so the overview's 30-day window holds half of them. */
const SPAN_MS = 60 * 86_400_000;

async function seed(): Promise<void> {
  const start = Date.now() - SPAN_MS;
  const spacing = SPAN_MS / USERS;
  const statements = [];
  for (let from = 0; from < USERS; from += 250) {
    const rows: string[] = [];
    for (let i = from; i < Math.min(from + 250, USERS); i++) {
      const n = String(i).padStart(6, "0");
      const created = new Date(start + Math.floor(i * spacing)).toISOString();
      const role = i % 100 === 0 ? "admin" : "user";
      const banned = i % 50 === 0 ? 1 : 0;
      rows.push(
        `('u${n}', 'Person ${i % 5000}', 'person-${n}@example.test', 1, '${created}', '${created}', '${role}', ${banned}, 'handle${n}')`,
      );
    }
    statements.push(
      db.prepare(
        `INSERT INTO "user" ("id", "name", "email", "emailVerified", "createdAt", "updatedAt", "role", "banned", "username") VALUES ${rows.join(", ")}`,
      ),
    );
  }
  // One user in ten has a session, last used 0 to 44 days ago: the overview's active users
  // (the session insert trigger records it in svc_user_activity too).
  for (let from = 0; from < USERS; from += 2500) {
    const rows: string[] = [];
    for (let i = from; i < Math.min(from + 2500, USERS); i += 10) {
      const n = String(i).padStart(6, "0");
      const used = new Date(Date.now() - (i % 45) * 86_400_000).toISOString();
      rows.push(`('s${n}', 't${n}', 'u${n}', '${used}', '${used}', '${used}')`);
    }
    statements.push(
      db.prepare(
        `INSERT INTO "session" ("id", "token", "userId", "expiresAt", "createdAt", "updatedAt") VALUES ${rows.join(", ")}`,
      ),
    );
  }
  for (let i = 0; i < statements.length; i += 50) await db.batch(statements.slice(i, i + 50));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

it(`admin user list over ${USERS} users`, { timeout: 600_000 }, async () => {
  await ensureMigrated(auth);
  const seeding = performance.now();
  await seed();
  const seeded = performance.now() - seeding;

  // A cursor half-way down the default order, by walking with the largest page.
  let cursor: string | null | undefined;
  for (let i = 0; i < USERS / 2 / 100; i++) {
    cursor = (await get(`users?limit=100${cursor ? `&cursor=${cursor}` : ""}`)).body.nextCursor;
  }
  const cases: [string, string][] = [
    ["first page, newest first (25 + total)", "users"],
    ["page 2,000 of 4,000 via cursor", `users?cursor=${cursor}`],
    ["first page by email", "users?sort=email&order=asc"],
    ["first page by name", "users?sort=name"],
    ["100 per page", "users?limit=100"],
    ["first page by last active (1 in 10 signed in)", "users?sort=lastActive"],
    ["first page by last sign-in, oldest first", "users?sort=lastSignIn&order=asc"],
    ["filter role=admin by last active", "users?role=admin&sort=lastActive"],
    ["search, one email", "users?search=person-054321"],
    ["search, 100 emails", "users?search=person-0999"],
    ["search, a name shared by 1 in 5,000", "users?search=Person 4321"],
    ["search, an id", "users?search=u054321"],
    ["search, every user (the domain)", "users?search=example.test"],
    ["search, two characters (no trigram)", "users?search=99"],
    ["search, letters outside ASCII (case folded)", "users?search=PERSÖN-0999"],
    ["search by email order", "users?search=person-0999&sort=email&order=asc"],
    ["filter role=admin (1 in 100)", "users?role=admin"],
    ["filter role=user (99 in 100)", "users?role=user"],
    ["filter role=admin by name", "users?role=admin&sort=name"],
    ["filter banned=true (1 in 50)", "users?banned=true"],
    ["filter banned=false", "users?banned=false"],
    ["search + role + banned", "users?search=person-09&role=admin&banned=true"],
    ["user detail", "users/u054321"],
    ["overview: totals, 30 days of sign-ups, active users", "overview"],
  ];
  const results = [];
  for (const [name, path] of cases) {
    const svcTimes: number[] = [];
    const rawTimes: number[] = [];
    let total: number | undefined;
    let totalIsExact: boolean | undefined;
    for (let round = 0; round < ROUNDS; round++) {
      const answer = await get(path);
      svcTimes.push(answer.ms);
      total = answer.body.total;
      totalIsExact = answer.body.totalIsExact;
      const statements = issued.map(({ sql, binds }) => db.prepare(sql).bind(...binds));
      const started = performance.now();
      await db.batch(statements);
      rawTimes.push(performance.now() - started);
    }
    const plans = await Promise.all(
      issued.map(async ({ sql, binds }) => {
        const plan = await db
          .prepare(`EXPLAIN QUERY PLAN ${sql}`)
          .bind(...binds)
          .all<{ detail: string }>();
        return plan.results.map((step) => step.detail);
      }),
    );
    results.push({
      name,
      path,
      total,
      totalIsExact,
      svcMs: median(svcTimes),
      rawMs: median(rawTimes),
      statements: issued.map(({ sql }) => sql),
      plans,
    });
  }
  const lines = [`seeded ${USERS} users in ${seeded.toFixed(0)} ms; median of ${ROUNDS} rounds:`];
  lines.push(`  ${"case".padEnd(46)} ${"svc".padStart(9)} ${"raw D1".padStart(9)}`);
  for (const result of results) {
    lines.push(
      `  ${result.name.padEnd(46)} ${result.svcMs.toFixed(1).padStart(6)} ms ${result.rawMs.toFixed(1).padStart(6)} ms`,
    );
  }
  console.log(lines.join("\n"));
  console.log(
    `SVC_BENCH_RESULT ${JSON.stringify({ users: USERS, rounds: ROUNDS, seededMs: seeded, results })}`,
  );
  expect(results.length).toBe(cases.length);
});
