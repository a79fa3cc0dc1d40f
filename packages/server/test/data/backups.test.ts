import {
  createExecutionContext,
  createScheduledController,
  waitOnExecutionContext,
} from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import serverPackage from "../../package.json";
import type { BackupInfo, DataAuditEntry } from "../../src/index.ts";
import type { ScheduledEndpoint } from "../../src/internal.ts";
import { versionOf } from "../../src/schema/applied-version.ts";
import { SVC_VERSION } from "../../src/version.ts";
import schema from "../fixture/schema.ts";
import { rpcValue } from "../rpc.ts";
import worker from "../worker.ts";
import {
  DATA,
  dataAdmin,
  dataJson,
  dumpShard,
  eventually,
  registryRow,
  seedShard,
} from "./admin.ts";
import { exportWithSlowReader } from "./export-probe.ts";

const NDJSON = { "content-type": "application/x-ndjson" };

async function exportLines(key: string): Promise<string[]> {
  const response = await dataAdmin("GET", `shards/${key}/export`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/x-ndjson");
  expect(response.headers.get("content-disposition")).toBe(`attachment; filename="${key}.ndjson"`);
  const text = new TextDecoder().decode(await response.arrayBuffer());
  return text.trimEnd().split("\n");
}

function importInto(key: string, lines: string[]): Promise<Response> {
  return dataAdmin("POST", `shards/${key}/import`, {
    body: `${lines.join("\n")}\n`,
    headers: NDJSON,
  });
}

async function auditTrail(): Promise<DataAuditEntry[]> {
  const response = await exports.default.fetch("http://svc.test/__test/audit", { headers: DATA });
  return (await response.json()) as DataAuditEntry[];
}

describe("export and import", () => {
  it("leaves no registry row for a refused import into a new key (issue 53, point 10)", async () => {
    await seedShard("src-refused", 3);
    await registryRow("src-refused", 3);
    const lines = await exportLines("src-refused");
    const refusals: Record<string, string> = {
      "empty body": "",
      "no header": `${lines.slice(1).join("\n")}\n`,
      "a 3 MB line": `${lines[0]}\n${"x".repeat(3 * 1024 * 1024)}\n`,
      "broken JSON": `${lines[0]}\n{"table":\n`,
    };
    const keys = Object.keys(refusals).map((_, index) => `refused-${index}-${crypto.randomUUID()}`);
    for (const [index, [name, body]] of Object.entries(refusals).entries()) {
      const response = await dataAdmin("POST", `shards/${keys[index]}/import`, {
        body,
        headers: NDJSON,
      });
      expect(response.status, name).toBe(400);
    }
    // Ten registry intervals: a shard the refusals had made would have reported by now.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    for (const [index, name] of Object.keys(refusals).entries()) {
      const listed = await dataAdmin("GET", `shards/${encodeURIComponent(keys[index]!)}`);
      expect(listed.status, name).toBe(404);
    }
    // The key stays usable: a good import afterwards lands and is listed.
    await dataJson("POST", `shards/${keys[0]}/import`, 200, {
      body: `${lines.join("\n")}\n`,
      headers: NDJSON,
    });
    await registryRow(keys[0]!, 3);
  });

  it("leaves no registry row when a refused import into a new key outlasts a registry interval", async () => {
    await seedShard("src-slow-refused", 2);
    await registryRow("src-slow-refused", 2);
    const [header] = await exportLines("src-slow-refused");
    const key = `slow-refused-${crypto.randomUUID()}`;
    const encoder = new TextEncoder();
    // The header arrives at once; the broken line only after five registry intervals (200 ms each).
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(encoder.encode(`${header}\n`));
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        controller.enqueue(encoder.encode('{"table":\n'));
        controller.close();
      },
    });
    const response = await dataAdmin("POST", `shards/${key}/import`, { body, headers: NDJSON });
    expect(response.status).toBe(400);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const listed = await dataAdmin("GET", `shards/${encodeURIComponent(key)}`);
    expect(listed.status).toBe(404);
  });

  it("round-trips a shard into an empty one: same ids, creation times and values", async () => {
    await seedShard("src-1", 25, 4);
    await registryRow("src-1", 29);
    const lines = await exportLines("src-1");
    const header = JSON.parse(lines[0]!);
    expect(header).toMatchObject({
      format: "svc-backup",
      formatVersion: 1,
      // The schema version the shard applied (_svc_meta.schema_version), as codegen computes it.
      schemaVersion: await versionOf(schema),
      svcVersion: SVC_VERSION,
      shardKey: "src-1",
      tables: { notes: 25, messages: 4, jobRuns: 0, ruleDocs: 0, fnDocs: 0 },
    });
    expect(Date.parse(header.createdAt)).not.toBeNaN();
    expect(lines).toHaveLength(1 + 29);
    expect(JSON.parse(lines[1]!)).toMatchObject({ table: "messages", doc: { author: "alice" } });

    const imported = await dataJson("POST", "shards/dst-1/import", 200, {
      body: `${lines.join("\n")}\n`,
      headers: NDJSON,
    });
    expect(imported).toEqual({
      key: "dst-1",
      documents: 29,
      tables: { messages: 4, notes: 25 },
    });
    expect(await dumpShard("dst-1")).toEqual(await dumpShard("src-1"));
    await registryRow("dst-1", 29);
    expect((await exportLines("dst-1")).slice(1)).toEqual(lines.slice(1));
  });

  it("refuses a non-empty shard with 409 and changes nothing", async () => {
    await seedShard("busy-src", 3);
    await seedShard("busy-1", 2);
    await registryRow("busy-src", 3);
    const lines = await exportLines("busy-src");
    const response = await importInto("busy-1", lines);
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ code: "CONFLICT", status: 409 });
    expect((await dumpShard("busy-1")).notes).toHaveLength(2);
  });

  it("answers 400 naming the first bad line, and imports nothing", async () => {
    await seedShard("src-2", 10);
    await registryRow("src-2", 10);
    const lines = await exportLines("src-2");
    const cases: { name: string; lines: string[]; line: number | null; detail: RegExp }[] = [
      {
        name: "broken JSON",
        lines: lines.map((l, i) => (i === 6 ? l.slice(0, 20) : l)),
        line: 7,
        detail: /^line 7: not valid JSON/,
      },
      {
        name: "a value its validator refuses",
        lines: lines.map((l, i) => (i === 4 ? l.replace(/"text":"[^"]*"/, '"text":42') : l)),
        line: 5,
        detail: /^line 5: notes\.text: /,
      },
      {
        name: "an unknown table",
        lines: lines.map((l, i) => (i === 3 ? l.replace('"table":"notes"', '"table":"nope"') : l)),
        line: 4,
        detail: /^line 4: table "nope"/,
      },
      {
        name: "the same id twice",
        lines: [...lines, lines[2]!],
        line: 12,
        detail: /^line 12: _id .* appears twice/,
      },
      { name: "no header", lines: lines.slice(1), line: 1, detail: /^line 1: not an svc backup/ },
      {
        name: "a cut file",
        lines: lines.slice(0, -1),
        line: null,
        detail: /header counts 10 documents in notes, the file holds 9/,
      },
    ];
    for (const [index, testCase] of cases.entries()) {
      const key = `bad-${index}`;
      const response = await importInto(key, testCase.lines);
      const body = (await response.json()) as {
        code: string;
        detail: string;
        data?: { line: number };
      };
      expect(response.status, testCase.name).toBe(400);
      expect(body.code, testCase.name).toBe("BAD_REQUEST");
      expect(body.detail, testCase.name).toMatch(testCase.detail);
      if (testCase.line !== null) expect(body.data, testCase.name).toEqual({ line: testCase.line });
      expect(await dumpShard(key), testCase.name).toEqual({ notes: [], messages: [] });
    }
    const wrongType = await dataAdmin("POST", "shards/bad-x/import", {
      body: lines.join("\n"),
      headers: { "content-type": "text/plain" },
    });
    expect(wrongType.status).toBe(400);

    const audit = await auditTrail();
    expect(audit).toContainEqual({
      operator: "alice",
      action: "shard.import",
      targetType: "shard",
      targetId: "bad-0",
      outcome: "error",
      detail: "line 7: not valid JSON",
    });
    expect(audit).toContainEqual(
      expect.objectContaining({ action: "shard.export", targetId: "src-2", outcome: "ok" }),
    );
  });
});

describe("an export's memory", () => {
  it("stays a couple of chunks ahead of a slow reader, whatever the shard holds", async () => {
    // 60,000 documents here; test/slow/export-memory.test.ts holds 1,000,000 to the same bound.
    const probe = await exportWithSlowReader("export-memory-60k", 60_000);
    expect(probe.lines).toBe(60_000);
    expect(probe.released).toBe(1);
    expect(probe.maxChunkBytes).toBeLessThanOrEqual(512 * 1024 + 1024);
    expect(probe.maxRowsAhead).toBeLessThan(12_000);
  });
});

describe("backups in R2", () => {
  it("backs a shard up to the bucket and restores it under a new key, document for document", async () => {
    await seedShard("r2-src", 40, 3);
    await registryRow("r2-src", 43);
    const info = await dataJson<BackupInfo>("POST", "shards/r2-src/backup", 200);
    expect(info).toMatchObject({ shardKey: "r2-src", documents: 43, svcVersion: SVC_VERSION });
    expect(info.id).toMatch(/^svc-backups\/r2-src\/\d{4}-.*\.ndjson$/);
    const object = await env.BACKUPS.get(info.id);
    const stored = new TextDecoder().decode(await object!.arrayBuffer());
    expect(stored.trimEnd().split("\n")).toHaveLength(44);

    const listed = await dataJson<{ backups: BackupInfo[] }>("GET", "backups?shard=r2-src", 200);
    expect(listed.backups).toEqual([info]);

    const restored = await dataJson("POST", "shards/r2-clone/restore", 200, {
      json: { backup: info.id },
    });
    expect(restored).toEqual({
      key: "r2-clone",
      documents: 43,
      tables: { messages: 3, notes: 40 },
    });
    expect(await dumpShard("r2-clone")).toEqual(await dumpShard("r2-src"));

    // Restoring again into the now non-empty clone is refused; an unknown backup is a 404.
    const again = await dataAdmin("POST", "shards/r2-clone/restore", { json: { backup: info.id } });
    expect(again.status).toBe(409);
    const unknown = await dataAdmin("POST", "shards/r2-other/restore", {
      json: { backup: "svc-backups/nope/2020.ndjson" },
    });
    expect(unknown.status).toBe(404);
  });

  it("downloads a shard's backup as the file it stored, audited, and refuses another shard's", async () => {
    await seedShard("r2-download", 5);
    await registryRow("r2-download", 5);
    const info = await dataJson<BackupInfo>("POST", "shards/r2-download/backup", 200);
    const response = await dataAdmin(
      "GET",
      `shards/r2-download/backup?id=${encodeURIComponent(info.id)}`,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/x-ndjson");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="r2-download-\d{4}-\d{2}-\d{2}T\d{2}_\d{2}_\d{2}\.\d{3}Z\.ndjson"$/,
    );
    const stored = await (await env.BACKUPS.get(info.id))!.text();
    expect(await response.text()).toBe(stored);
    expect((await auditTrail()).at(-1)).toMatchObject({
      action: "shard.export",
      targetId: "r2-download",
      outcome: "ok",
      detail: `backup ${info.id} downloaded`,
    });

    // Another shard's backup through this shard's path, and an unknown id, are both 404.
    for (const key of ["r2-other", "r2-download"]) {
      const id = key === "r2-other" ? info.id : "svc-backups/r2-download/2000.ndjson";
      const refused = await dataAdmin("GET", `shards/${key}/backup?id=${encodeURIComponent(id)}`);
      expect(refused.status, key).toBe(404);
      expect(await refused.json()).toMatchObject({ code: "NOT_FOUND" });
    }
    const missing = await dataAdmin("GET", "shards/r2-download/backup");
    expect(missing.status).toBe(400);
  });

  it("says the scheduled backups' settings", async () => {
    expect(await dataJson("GET", "backups/schedule", 200)).toEqual({
      bucket: "BACKUPS",
      schedule: "30 3 * * *",
      keep: 2,
      files: false,
    });
  });

  it("keeps only the newest `keep` backups of a shard", async () => {
    await seedShard("r2-keep", 1);
    await registryRow("r2-keep", 1);
    const taken: BackupInfo[] = [];
    for (let i = 0; i < 3; i++) {
      taken.push(await dataJson<BackupInfo>("POST", "shards/r2-keep/backup", 200));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const listed = await dataJson<{ backups: BackupInfo[] }>("GET", "backups?shard=r2-keep", 200);
    expect(listed.backups.map((b) => b.id)).toEqual(taken.slice(1).map((b) => b.id));
  });

  it("backs up every shard of the registry when the schedule fires", async () => {
    const keys = ["sched-a", "sched-b", "sched-c"];
    for (const [i, key] of keys.entries()) await seedShard(key, i + 1);
    for (const [i, key] of keys.entries()) await registryRow(key, i + 1);
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "30 3 * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    for (const [i, key] of keys.entries()) {
      const backup = await eventually(async () => {
        const page = await dataJson<{ backups: BackupInfo[] }>("GET", `backups?shard=${key}`, 200);
        return page.backups[0];
      }, `a scheduled backup of ${key}`);
      expect(backup.documents).toBe(i + 1);
    }
  });

  it("answers 501 for point-in-time restore where the runtime keeps no bookmarks", async () => {
    await seedShard("pitr-1", 1);
    await registryRow("pitr-1", 1);
    const unconfirmed = await dataAdmin("POST", "shards/pitr-1/rewind", {
      json: { at: new Date().toISOString(), confirm: "other" },
    });
    expect(unconfirmed.status).toBe(400);
    const response = await dataAdmin("POST", "shards/pitr-1/rewind", {
      json: { at: new Date(Date.now() - 60_000).toISOString(), confirm: "pitr-1" },
    });
    expect(response.status).toBe(501);
    expect(await response.json()).toMatchObject({ code: "NOT_IMPLEMENTED", status: 501 });
    expect((await dumpShard("pitr-1")).notes).toHaveLength(1);
  });

  it("records the package version in backups", () => {
    expect(SVC_VERSION).toBe(serverPackage.version);
  });
});

describe("backups carry pending jobs", () => {
  const as = <T>(path: string, args: unknown, shardKey: string) =>
    rpcValue<T>(path, args, { shardKey, user: "ann", headers: DATA });
  const notesOf = (shardKey: string) => as<string[]>("scheduled:texts", {}, shardKey);
  const scheduled = (shardKey: string) =>
    env.DATA_SHARD.getByName(shardKey) as unknown as DurableObjectStub & ScheduledEndpoint;

  it("restores a shard's pending job into a fresh shard, whose alarm runs it once", async () => {
    const source = "jobs-src";
    const pending = await as<string>(
      "scheduled:later",
      { delayMs: 4_000, text: "carried" },
      source,
    );
    const canceled = await as<string>("scheduled:later", { delayMs: 60_000, text: "no" }, source);
    expect(await as("scheduled:cancel", { id: canceled }, source)).toBe(true);
    const info = await dataJson<BackupInfo>("POST", `shards/${source}/backup`, 200);
    const object = await env.BACKUPS.get(info.id);
    const lines = new TextDecoder()
      .decode(await object!.arrayBuffer())
      .trimEnd()
      .split("\n");
    // Only the unfinished job travels, counted in the header like a table.
    expect(JSON.parse(lines[0]!).tables).toMatchObject({ _svc_scheduled: 1 });
    expect(lines.slice(1).map((line) => JSON.parse(line))).toMatchObject([
      {
        table: "_svc_scheduled",
        _id: pending,
        doc: { path: "scheduled:note", kind: "mutation", attempts: 0, userId: "ann" },
      },
    ]);

    const restored = await dataJson("POST", "shards/jobs-clone/restore", 200, {
      json: { backup: info.id },
    });
    expect(restored).toEqual({ key: "jobs-clone", documents: 0, tables: { _svc_scheduled: 1 } });
    // The clone's own alarm runs it, as the user who scheduled it, once.
    await eventually(
      async () => ((await notesOf("jobs-clone")).length > 0 ? true : undefined),
      "the restored job ran",
    );
    expect(await scheduled("jobs-clone").runScheduled(Date.now() + 3_600_000)).toBe(0);
    expect(await notesOf("jobs-clone")).toEqual(["carried by ann"]);
  });

  it("refuses a job line it cannot run, naming the line, and restores nothing", async () => {
    const header = {
      format: "svc-backup",
      formatVersion: 1,
      schemaVersion: null,
      svcVersion: SVC_VERSION,
      shardKey: "x",
      createdAt: new Date().toISOString(),
      tables: { _svc_scheduled: 1 },
    };
    const job = {
      table: "_svc_scheduled",
      _id: "_svc_scheduled_01jzzzzzzzzzzzzzzzzzzzzzzz",
      _creationTime: Date.now(),
      doc: { path: "scheduled:note", kind: "query", args: "{}", runAt: 0, attempts: 0 },
    };
    const response = await importInto("jobs-bad", [JSON.stringify(header), JSON.stringify(job)]);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: "BAD_REQUEST",
      data: { line: 2 },
      detail: expect.stringContaining('kind must be "mutation" or "action"'),
    });
    expect(await scheduled("jobs-bad").runScheduled(Date.now() + 3_600_000)).toBe(0);
  });
});
