import { env } from "cloudflare:workers";
import { memoryAdapter } from "better-auth/adapters/memory";
import { describe, expect, it } from "vitest";
import {
  compileMigrationsSql,
  createAuth,
  ensureMigrated,
  SvcAuthError,
  svcDatabaseAdapter,
} from "../src/index.ts";
import { billing } from "./fixture/billing-plugin.ts";
import { TEST_ORIGIN, TEST_SECRET } from "./fixture/constants.ts";
import { largePluginSet } from "./fixture/plugin-sets.ts";
import { RecordingD1 } from "./fixture/recording-d1.ts";
import { applyMigrationFile, schemaOf } from "./fixture/schema-of.ts";

const LARGE_SET_TABLES = [
  "account",
  "deviceCode",
  "invitation",
  "jwks",
  "member",
  "oauthAccessToken",
  "oauthClient",
  "oauthClientAssertion",
  "oauthClientResource",
  "oauthConsent",
  "oauthRefreshToken",
  "oauthResource",
  "organization",
  "passkey",
  "session",
  "team",
  "teamMember",
  "twoFactor",
  "user",
  "verification",
  "walletAddress",
];

function authOn(database: D1Database, plugins: ReturnType<typeof largePluginSet> = []) {
  return createAuth({
    secret: TEST_SECRET,
    baseURL: TEST_ORIGIN,
    database: svcDatabaseAdapter(database),
    emailAndPassword: { enabled: true },
    plugins,
  });
}

describe("ensureMigrated with a large plugin set", () => {
  it("creates every table, does nothing the second time, and matches compileMigrationsSql", async () => {
    const db = new RecordingD1(env.MIGRATE_LARGE);
    await ensureMigrated(authOn(db, largePluginSet()));
    const migrated = await schemaOf(env.MIGRATE_LARGE);
    expect(Object.keys(migrated)).toEqual(LARGE_SET_TABLES);
    expect(migrated.user).toMatchObject({
      columns: expect.arrayContaining([
        expect.objectContaining({ name: "role" }),
        expect.objectContaining({ name: "username" }),
        expect.objectContaining({ name: "twoFactorEnabled" }),
        expect.objectContaining({ name: "phoneNumber" }),
        expect.objectContaining({ name: "isAnonymous" }),
      ]),
    });

    // A warm isolate, even with a new auth instance for the same schema: no SQL at all.
    const sent = db.sql.length;
    await ensureMigrated(authOn(db, largePluginSet()));
    expect(db.sql.length).toBe(sent);
    // And the database agrees: nothing left to migrate.
    expect(
      await compileMigrationsSql({
        secret: "x",
        database: env.MIGRATE_LARGE,
        plugins: largePluginSet(),
      }),
    ).toBe("");

    const sql = await compileMigrationsSql({ secret: "placeholder", plugins: largePluginSet() });
    await applyMigrationFile(env.MIGRATE_COMPILED, sql);
    expect(await schemaOf(env.MIGRATE_COMPILED)).toEqual(migrated);
  });
});

describe("compileMigrationsSql", () => {
  it("writes a deterministic wrangler migration file: a header, then one statement per line", async () => {
    const first = await compileMigrationsSql({ secret: "a", plugins: largePluginSet() });
    const second = await compileMigrationsSql({ secret: "b", plugins: largePluginSet() });
    expect(second).toBe(first);
    const [header, ...statements] = first.trimEnd().split("\n");
    expect(header).toMatch(/^-- @svc\/auth schema, plugins: admin, organization, .*do not edit\.$/);
    expect(statements.length).toBeGreaterThan(LARGE_SET_TABLES.length);
    for (const statement of statements)
      expect(statement).toMatch(/^create (unique )?(table|index) .*;$/);
    expect(first).not.toContain("?");
  });

  it("still requires a secret, as createAuth does", async () => {
    await expect(compileMigrationsSql({ secret: "" })).rejects.toMatchObject({
      code: "AUTH_SECRET_MISSING",
    });
  });
});

describe("ensureMigrated under concurrency", () => {
  it("shares one run between concurrent callers in an isolate", async () => {
    const db = new RecordingD1(env.MIGRATE_CONCURRENT);
    const auth = authOn(db);
    const runs = [ensureMigrated(auth), ensureMigrated(auth), ensureMigrated(authOn(db))];
    await expect(Promise.all(runs)).resolves.toEqual([undefined, undefined, undefined]);
    expect(db.sql.filter((sql) => /^create table "user"/.test(sql))).toHaveLength(1);
  });

  it("converges when two cold isolates migrate the same database at once", async () => {
    // Two windows on one database stand for two isolates: each has its own cache entry.
    const isolateA = new RecordingD1(env.MIGRATE_RETRY);
    const isolateB = new RecordingD1(env.MIGRATE_RETRY);
    await expect(
      Promise.all([
        ensureMigrated(authOn(isolateA, largePluginSet())),
        ensureMigrated(authOn(isolateB, largePluginSet())),
      ]),
    ).resolves.toEqual([undefined, undefined]);
    expect(Object.keys(await schemaOf(env.MIGRATE_RETRY))).toEqual(LARGE_SET_TABLES);
    expect(
      await compileMigrationsSql({
        secret: "x",
        database: env.MIGRATE_RETRY,
        plugins: largePluginSet(),
      }),
    ).toBe("");
  });
});

describe("ensureMigrated when something goes wrong", () => {
  it("forgets a failed run, so the next call retries and succeeds", async () => {
    const db = new RecordingD1(env.MIGRATE_COMMUNITY);
    db.failDdl = 100;
    const failed = ensureMigrated(authOn(db));
    await expect(failed).rejects.toBeInstanceOf(SvcAuthError);
    await expect(failed).rejects.toMatchObject({ code: "AUTH_MIGRATION_FAILED" });

    db.failDdl = 1; // one more blip: the run diffs again and finishes
    await ensureMigrated(authOn(db));
    expect(Object.keys(await schemaOf(env.MIGRATE_COMMUNITY))).toEqual([
      "account",
      "session",
      "user",
      "verification",
    ]);
  });

  it("refuses, instead of letting better-auth's migrator exit, when there is no database", async () => {
    const schemaOnly = createAuth({ secret: TEST_SECRET });
    await expect(ensureMigrated(schemaOnly)).rejects.toMatchObject({
      code: "AUTH_DATABASE_MISSING",
    });
  });

  it("refuses a database adapter it cannot diff", async () => {
    const inMemory = createAuth({ secret: TEST_SECRET, database: memoryAdapter({}) });
    await expect(ensureMigrated(inMemory)).rejects.toMatchObject({
      code: "AUTH_DATABASE_UNSUPPORTED",
    });
  });
});

describe("a community plugin", () => {
  it("gets its table and columns on the next ensureMigrated", async () => {
    const db = env.MIGRATE_COMMUNITY;
    await ensureMigrated(authOn(db));
    await db
      .prepare(
        "INSERT INTO user (id, name, email, emailVerified, createdAt, updatedAt) VALUES ('u1', 'Ann', 'ann@svc.test', 0, 0, 0)",
      )
      .run();

    await ensureMigrated(
      createAuth({ secret: TEST_SECRET, database: svcDatabaseAdapter(db), plugins: [billing()] }),
    );
    const schema = (await schemaOf(db)) as Record<string, { columns: { name: string }[] }>;
    expect(schema.subscription?.columns.map((column) => column.name)).toEqual([
      "id",
      "plan",
      "status",
      "referenceId",
    ]);
    expect(schema.user?.columns.map((column) => column.name)).toContain("billingCustomerId");
    expect(await db.prepare("SELECT name FROM user WHERE id = 'u1'").first("name")).toBe("Ann");
  });
});
