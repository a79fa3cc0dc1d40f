/**
 * The shard SQL console (`POST /_svc/admin/data/shards/:key/sql`, issue 52):
 * SQLite decides what writes, a read-only run changes nothing, pages stop at
 * their caps over a million rows, refusals are 4xx problems, and a write is
 * audited with its statement; over real HTTP into a real shard.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { SqlPage } from "../../src/studio/shard-protocol.ts";
import { DATA, dataAdmin, dataJson, registryRow, seedShard } from "./admin.ts";

type Problem = { status: number; code: string; detail: string };
type AuditRow = {
  operator: string;
  action: string;
  targetId: string;
  outcome: string;
  detail: string;
};

const sqlPath = (key: string) => `shards/${encodeURIComponent(key)}/sql`;

function runSql(key: string, json: Record<string, unknown>, status = 200): Promise<SqlPage> {
  return dataJson<SqlPage>("POST", sqlPath(key), status, { json });
}

async function refused(key: string, json: Record<string, unknown>): Promise<Problem> {
  const response = await dataAdmin("POST", sqlPath(key), { json });
  const problem = (await response.json()) as Problem;
  expect(response.status, JSON.stringify(problem)).toBeGreaterThanOrEqual(400);
  expect(response.status, JSON.stringify(problem)).toBeLessThan(500);
  expect(response.headers.get("content-type")).toContain("application/problem+json");
  return { ...problem, status: response.status };
}

async function auditEntries(): Promise<AuditRow[]> {
  const all = (await (
    await exports.default.fetch("http://svc.test/__test/audit", { headers: DATA })
  ).json()) as AuditRow[];
  return all.filter((entry) => entry.action === "shard.sql");
}

const count = async (key: string, table: string) =>
  (await runSql(key, { sql: `SELECT count(*) AS n FROM ${table}` })).rows[0]![0];

describe("the shard SQL console", () => {
  it("reads with params, and refuses a DELETE in read-only mode, changing nothing", async () => {
    const key = "sql-console-read";
    await seedShard(key, 5);
    await registryRow(key, 5);
    const tables = await runSql(key, {
      sql: "SELECT name FROM sqlite_master WHERE type = ? AND name = ?",
      params: ["table", "t_notes"],
    });
    expect(tables).toMatchObject({ columns: ["name"], rows: [["t_notes"]], readOnly: true });
    expect(tables.nextOffset).toBeNull();
    // One statement with semicolons inside strings, names and comments, and a trailing one.
    expect((await runSql(key, { sql: `SELECT ';' AS "a;b" /* ; */ -- ;\n ;` })).rows).toEqual([
      [";"],
    ]);
    expect(await count(key, "t_notes")).toBe(5);

    const deletion = await refused(key, { sql: "DELETE FROM t_notes" });
    expect(deletion).toMatchObject({ status: 403, code: "FORBIDDEN" });
    expect(deletion.detail).toContain("write mode");
    // A write hidden behind a read in one text: SQLite's program, not the text, decides.
    for (const sql of [
      "SELECT 1; DELETE FROM t_notes",
      "DELETE FROM t_notes; SELECT 1",
      "WITH gone AS (SELECT 1) DELETE FROM t_notes",
      "CREATE TABLE sneaky (a)",
      "DROP TABLE t_notes",
      "UPDATE t_notes SET _doc = '{}'",
      "SELECT ';'; DELETE FROM t_notes",
      "SELECT 1 /* ; */; -- ;\n DELETE FROM t_notes",
    ]) {
      const problem = await refused(key, { sql });
      expect([400, 403], `${sql}: ${problem.detail}`).toContain(problem.status);
    }
    expect(await count(key, "t_notes")).toBe(5);
    expect(
      (await runSql(key, { sql: "SELECT count(*) FROM sqlite_master WHERE name = 'sneaky'" })).rows,
    ).toEqual([[0]]);

    // SQLite's own refusals are the operator's mistake: 400 with SQLite's message.
    const syntax = await refused(key, { sql: "SELEC nothing" });
    expect(syntax).toMatchObject({ status: 400, code: "BAD_REQUEST" });
    expect(syntax.detail).toContain("SQLite refused the statement");
    expect(await refused(key, { sql: "SELECT * FROM no_such_table" })).toMatchObject({
      status: 400,
    });
    expect(await refused(key, { sql: "PRAGMA query_only = ON" })).toMatchObject({ status: 403 });
    // A flag pragma takes effect as SQLite compiles it: read-only mode refuses it from its text.
    for (const sql of [
      "PRAGMA case_sensitive_like=ON",
      "/* x */ pragma Case_Sensitive_Like = 1;",
      "PRAGMA case_sensitive_like(1)",
      "PRAGMA main.recursive_triggers = true",
    ]) {
      const problem = await refused(key, { sql });
      expect(problem, sql).toMatchObject({ status: 403, code: "FORBIDDEN" });
      expect(problem.detail).toContain("write mode");
    }
    expect((await runSql(key, { sql: "SELECT 'a' LIKE 'A' AS folded" })).rows).toEqual([[1]]);
    // A pragma whose argument only names what to read still reads.
    const columns = await runSql(key, { sql: "PRAGMA table_info(t_notes)" });
    expect(columns.readOnly).toBe(true);
    expect(columns.rows.map((row) => row[1])).toEqual(["_id", "_creationTime", "_doc"]);
    expect(await refused(key, { sql: "SELECT ?", params: [{ nested: true }] })).toMatchObject({
      status: 400,
      code: "VALIDATION_FAILED",
    });
    expect(
      (
        await dataAdmin("POST", sqlPath("never-written-sql-shard"), {
          json: { sql: "SELECT 1" },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await dataAdmin("POST", sqlPath(key), {
          json: { sql: "SELECT 1" },
          headers: { authorization: "" },
        })
      ).status,
    ).toBe(401);
  });

  it("writes in write mode, audited with its statement; a refusal is audited too", async () => {
    const key = "sql-console-write";
    await seedShard(key, 3);
    await registryRow(key, 3);
    const statement =
      "DELETE FROM t_notes WHERE rowid IN (SELECT rowid FROM t_notes LIMIT 1) RETURNING 1";
    const written = await runSql(key, { sql: statement, write: true });
    expect(written).toMatchObject({ rows: [[1]], readOnly: false, rowsWritten: 1 });
    expect(await count(key, "t_notes")).toBe(2);
    const entry = (await auditEntries()).find(
      (row) => row.targetId === key && row.outcome === "ok" && row.detail.includes("DELETE"),
    );
    expect(entry).toBeDefined();
    expect(entry!.operator).toBe("alice");
    expect(JSON.parse(entry!.detail)).toMatchObject({
      shard: key,
      write: true,
      sql: statement,
      rowsWritten: 1,
    });
    await refused(key, { sql: "DELETE FROM t_notes" });
    const refusal = (await auditEntries()).find(
      (row) => row.targetId === key && row.outcome === "error",
    );
    expect(JSON.parse(refusal!.detail)).toMatchObject({
      sql: "DELETE FROM t_notes",
      write: false,
      error: expect.stringContaining("write mode"),
    });
  });

  it("answers the first page of a million rows within its caps, and counts without loading rows", async () => {
    const key = "sql-console-million";
    await seedShard(key, 1);
    await registryRow(key, 1);
    await runSql(key, { sql: "CREATE TABLE big (n INTEGER PRIMARY KEY, label TEXT)", write: true });
    const seeded = await runSql(key, {
      sql: "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 1000000) INSERT INTO big SELECT n, 'row ' || n FROM c",
      write: true,
    });
    expect(seeded.rowsWritten).toBe(1_000_000);

    const started = Date.now();
    const first = await runSql(key, { sql: "SELECT n, label FROM big" });
    const ms = Date.now() - started;
    expect(first.rows).toHaveLength(100);
    expect(first.rows[0]).toEqual([1, "row 1"]);
    expect(first).toMatchObject({ stoppedBy: "rows", nextOffset: 100, readOnly: true });
    // SQLite streams the rows: the page read about its own rows, not the table.
    expect(first.rowsRead).toBeLessThan(1_000);
    expect(ms).toBeLessThan(2_000);
    const second = await runSql(key, { sql: "SELECT n FROM big", offset: 100, limit: 1_000 });
    expect(second.rows[0]).toEqual([101]);
    expect(second.rows).toHaveLength(1_000);
    const wide = await runSql(key, {
      sql: "SELECT n, printf('%.5000c', 'x') AS filler FROM big",
      limit: 1_000,
    });
    expect(wide.stoppedBy).toBe("size");
    expect(wide.rows.length).toBeLessThan(1_000);
    expect(await count(key, "big")).toBe(1_000_000);
    const grouped = await runSql(key, { sql: "SELECT n % 3 AS r, count(*) FROM big GROUP BY r" });
    expect(grouped.rows).toEqual([
      [0, 333_333],
      [1, 333_334],
      [2, 333_333],
    ]);
    expect((await refused(key, { sql: "SELECT n FROM big", limit: 1_001 })).code).toBe(
      "VALIDATION_FAILED",
    );
  }, 120_000);
});
