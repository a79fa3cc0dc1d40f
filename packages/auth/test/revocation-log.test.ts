import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createAuth, ensureMigrated, svcDatabaseAdapter } from "../src/index.ts";
import { d1RevocationReader } from "../src/revocation/log-reader.ts";
import { REVOCATION_RETENTION_MS } from "../src/revocation/log-schema.ts";
import { TEST_ORIGIN, TEST_SECRET } from "./fixture/constants.ts";

/** svc's revocation log (svc_revocation) as the triggers write it, on a database of its own. */
const db = env.MIGRATE_REVOCATION;
const migrated = (plugins: ReturnType<typeof createAuth>["options"]["plugins"] = []) =>
  ensureMigrated(
    createAuth({
      secret: TEST_SECRET,
      baseURL: TEST_ORIGIN,
      database: svcDatabaseAdapter(db),
      emailAndPassword: { enabled: true },
      plugins,
    }),
  );

const at = "2026-01-01T00:00:00.000Z";
const insertUser = (id: string) =>
  db
    .prepare(
      `INSERT INTO "user" ("id", "name", "email", "emailVerified", "createdAt", "updatedAt") VALUES (?, ?, ?, 0, '${at}', '${at}')`,
    )
    .bind(id, id, `${id}@example.test`);
const insertSession = (id: string, userId: string) =>
  db
    .prepare(
      `INSERT INTO "session" ("id", "token", "userId", "expiresAt", "createdAt", "updatedAt") VALUES (?, ?, ?, '2099-01-01T00:00:00.000Z', '${at}', '${at}')`,
    )
    .bind(id, `token-${id}`, userId);

describe("the revocation log", () => {
  it("records every session and user update or delete, never an insert, and never a token", async () => {
    await migrated();
    const read = d1RevocationReader(db);
    const { newest } = await read(null);
    await db.batch([insertUser("u1"), insertSession("s1", "u1"), insertSession("s2", "u1")]);
    await db.batch([
      db.prepare(`UPDATE "session" SET "updatedAt" = '2026-02-01T00:00:00.000Z' WHERE "id" = 's1'`),
      db.prepare(`DELETE FROM "session" WHERE "id" = 's2'`),
      db.prepare(`UPDATE "user" SET "name" = 'renamed' WHERE "id" = 'u1'`),
      db.prepare(`DELETE FROM "session" WHERE "userId" = 'u1'`),
      db.prepare(`DELETE FROM "user" WHERE "id" = 'u1'`),
    ]);
    const { entries } = await read(newest ?? 0);
    expect(entries.map(({ kind, id }) => [kind, id])).toEqual([
      ["session", "s1"],
      ["session", "s2"],
      ["user", "u1"],
      ["session", "s1"],
      ["user", "u1"],
    ]);
    const text = JSON.stringify(await db.prepare(`SELECT * FROM "svc_revocation"`).all());
    expect(text).not.toContain("token-");
  });

  it("prunes rows past the retention as new ones come, keeping the newest", async () => {
    await migrated();
    const old = Date.now() - REVOCATION_RETENTION_MS - 60_000;
    await db.batch(
      ["old-1", "old-2", "old-3"].map((id) =>
        db
          .prepare(`INSERT INTO "svc_revocation" ("kind", "id", "at") VALUES ('session', ?, ?)`)
          .bind(id, old),
      ),
    );
    const ids = async () =>
      (
        await db.prepare(`SELECT "id" FROM "svc_revocation" ORDER BY "seq"`).all<{ id: string }>()
      ).results.map((row) => row.id);
    expect((await ids()).slice(-3)).toEqual(["old-1", "old-2", "old-3"]);
    await db.batch([insertUser("u2"), insertSession("s3", "u2")]);
    await db.prepare(`DELETE FROM "session" WHERE "id" = 's3'`).run();
    const after = await ids();
    expect(after.filter((id) => id.startsWith("old-"))).toEqual([]);
    expect(after.at(-1)).toBe("s3");
  });

  it("is rebuilt by the next migration when a trigger is missing or stale", async () => {
    await migrated();
    await db.batch([
      db.prepare(`DROP TRIGGER "svc_revocation_user_update"`),
      db.prepare(`DROP TRIGGER "svc_revocation_session_delete"`),
      db.prepare(
        `CREATE TRIGGER "svc_revocation_session_delete" AFTER DELETE ON "session" BEGIN SELECT 1; END`,
      ),
    ]);
    // Another plugin set: ensureMigrated runs once per database and schema.
    const { twoFactor } = await import("../src/plugins.ts");
    await migrated([twoFactor()]);
    const triggers = await db
      .prepare(
        `SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'svc_revocation_%' ORDER BY name`,
      )
      .all<{ name: string; sql: string }>();
    expect(triggers.results.map((row) => row.name)).toEqual([
      "svc_revocation_prune",
      "svc_revocation_session_delete",
      "svc_revocation_session_update",
      "svc_revocation_user_delete",
      "svc_revocation_user_update",
    ]);
    expect(triggers.results[1]?.sql).toContain(`INSERT INTO "svc_revocation"`);
  });
});
