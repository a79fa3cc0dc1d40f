/**
 * Files in backups (issue 48): a backup always carries the shard's file
 * metadata, and with `?files=true` the bytes; a restore into a fresh shard
 * puts both back, so a file downloads byte-identical (with the flag) or
 * keeps its metadata only (without). A backup whose bytes were altered is
 * refused and leaves nothing behind. A shard with files and pending
 * scheduled jobs gets both back. Scheduled runs carry the bytes where
 * `backups.files` says so.
 */
import {
  createExecutionContext,
  createScheduledController,
  runInDurableObject,
  waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { registryPartitionName, registryPartitionOf } from "../../src/registry/partitions.ts";
import { objectKey } from "../../src/storage/paths.ts";
import { forceEviction } from "../migration-support.ts";
import { FILES_ADMIN_TOKEN, filesWorker } from "./files-app.ts";
import { bytesOf, filesValue, sha256, storageFetch, upload } from "./storage-client.ts";

type Backup = { id: string; documents: number };

function admin(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${FILES_ADMIN_TOKEN}`);
  return storageFetch(`/_svc/admin/${path}`, { ...init, headers });
}

async function adminJson<T>(path: string, status: number, init: RequestInit = {}): Promise<T> {
  const response = await admin(path, init);
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text) as T;
}

/** Waits until the registry knows `shard` (backups are of known shards only). */
async function known(shard: string): Promise<void> {
  const until = Date.now() + 5_000;
  while ((await admin(`files/shards/${shard}`)).status === 404) {
    if (Date.now() > until) throw new Error(`the registry never listed ${shard}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A shard where alice uploaded `bytes` and attached them; answers the file's id. */
async function shardWithFile(shard: string, bytes: Uint8Array): Promise<string> {
  const url = await filesValue<string>("files:uploadUrl", {}, "alice", shard);
  const { body } = await upload(url, bytes, "image/png");
  const id = body.storageId as string;
  await filesValue("files:attach", { file: id, name: "photo" }, "alice", shard);
  await known(shard);
  return id;
}

function restore(shard: string, backup: string): Promise<Response> {
  return admin(`data/shards/${shard}/restore`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ backup }),
  });
}

/** The backup object's lines, as the bucket holds them. */
async function backupLines(id: string): Promise<string[]> {
  const object = await env.BACKUPS.get(id);
  expect(object).not.toBeNull();
  return (await object!.text()).trimEnd().split("\n");
}

/** Checks that backup `id` holds one file with its bytes, in `pieces` bytes lines. */
async function expectOneFileWithBytes(id: string, pieces: number): Promise<void> {
  const lines = await backupLines(id);
  expect(JSON.parse(lines[0]!)).toMatchObject({ files: 1, fileBytes: true });
  const bytes = lines.filter((line) => line.startsWith('{"system":"_svc_storage_bytes"'));
  expect(bytes).toHaveLength(pieces);
}

/** Restores `backup` into `target`, which must answer 200; answers its result. */
async function restoredInto(target: string, backup: string): Promise<unknown> {
  const restored = await restore(target, backup);
  const text = await restored.text();
  expect(restored.status, text).toBe(200);
  return JSON.parse(text);
}

describe("files in backups", () => {
  it("with ?files=true: restores metadata and bytes; the file downloads byte-identical", async () => {
    const source = `files-backup-${crypto.randomUUID().slice(0, 8)}`;
    // Two bytes lines (768 KiB each at most): the restore joins them in order.
    const bytes = bytesOf(1_000_000, 7);
    const id = await shardWithFile(source, bytes);
    const backup = await adminJson<Backup>(`data/shards/${source}/backup?files=true`, 200, {
      method: "POST",
    });
    await expectOneFileWithBytes(backup.id, 2);

    const target = `${source}-restored`;
    expect(await restoredInto(target, backup.id)).toMatchObject({ documents: 1 });
    const metadata = await filesValue<Record<string, unknown>>(
      "files:metadata",
      { file: id },
      "alice",
      target,
    );
    expect(metadata).toMatchObject({ size: bytes.byteLength, sha256: await sha256(bytes) });
    const url = await filesValue<string>("files:url", { file: id }, "alice", target);
    const download = await storageFetch(url);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("image/png");
    expect(await sha256(await download.arrayBuffer())).toBe(await sha256(bytes));
    // RLS holds in the restored shard: bob cannot read alice's attachment, so not its file.
    expect(await filesValue("files:url", { file: id }, "bob", target)).toBeNull();
  });

  it("without the flag: restores the metadata only (the bytes stay where they were)", async () => {
    const source = `files-meta-${crypto.randomUUID().slice(0, 8)}`;
    const bytes = bytesOf(2_000, 3);
    const id = await shardWithFile(source, bytes);
    const backup = await adminJson<Backup>(`data/shards/${source}/backup`, 200, {
      method: "POST",
    });
    const lines = await backupLines(backup.id);
    expect(JSON.parse(lines[0]!)).toMatchObject({ files: 1 });
    expect(JSON.parse(lines[0]!).fileBytes).toBeUndefined();
    expect(lines.filter((line) => line.startsWith('{"system":"_svc_storage"'))).toHaveLength(1);

    const target = `${source}-restored`;
    expect((await restore(target, backup.id)).status).toBe(200);
    const metadata = await filesValue<Record<string, unknown>>(
      "files:metadata",
      { file: id },
      "alice",
      target,
    );
    expect(metadata).toMatchObject({
      storageId: id,
      size: 2_000,
      contentType: "image/png",
      sha256: await sha256(bytes),
    });
    expect(await env.FILES.head(objectKey(target, id))).toBeNull();
    const url = await filesValue<string>("files:url", { file: id }, "alice", target);
    expect((await storageFetch(url)).status).toBe(404);
  });

  it("names a stored file whose bytes are gone from R2, and backs up once it is deleted", async () => {
    const source = `files-gone-${crypto.randomUUID().slice(0, 8)}`;
    const id = await shardWithFile(source, bytesOf(2_000, 5));
    await env.FILES.delete(objectKey(source, id));
    const refused = await admin(`data/shards/${source}/backup?files=true`, { method: "POST" });
    const text = await refused.text();
    expect(refused.status, text).toBe(409);
    expect(JSON.parse(text)).toMatchObject({
      code: "CONFLICT",
      data: { reason: "missing_bytes", storageId: id },
    });
    expect(text).toContain(`File ${id} is recorded as stored, but its bytes are missing from R2`);
    // What the answer says to do: delete the file, and the backup goes through.
    expect((await admin(`files/shards/${source}/${id}`, { method: "DELETE" })).status).toBe(200);
    await adminJson<Backup>(`data/shards/${source}/backup?files=true`, 200, { method: "POST" });
  });

  it("refuses a backup whose bytes were altered, leaving no document, file or byte behind", async () => {
    const source = `files-altered-${crypto.randomUUID().slice(0, 8)}`;
    const id = await shardWithFile(source, bytesOf(5_000, 9));
    const backup = await adminJson<Backup>(`data/shards/${source}/backup?files=true`, 200, {
      method: "POST",
    });
    const lines = await backupLines(backup.id);
    const altered = lines.map((line) =>
      line.startsWith('{"system":"_svc_storage_bytes"')
        ? line.replace(/"data":"(.)/, (_, first) => `"data":"${first === "A" ? "B" : "A"}`)
        : line,
    );
    const forged = `svc-backups/${source}/forged.ndjson`;
    await env.BACKUPS.put(forged, `${altered.join("\n")}\n`);
    const target = `${source}-restored`;
    const refused = await restore(target, forged);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { detail: string }).detail).toContain(
      `the bytes of file ${id} do not match its sha256`,
    );
    expect(await env.FILES.head(objectKey(target, id))).toBeNull();
    expect(await filesValue("files:metadata", { file: id }, "alice", target)).toBeNull();
  });

  it("refuses a restore into a shard holding files or scheduled jobs, though no document", async () => {
    const source = `files-occupied-${crypto.randomUUID().slice(0, 8)}`;
    await shardWithFile(source, bytesOf(1_000, 15));
    const backup = await adminJson<Backup>(`data/shards/${source}/backup?files=true`, 200, {
      method: "POST",
    });
    // A shard with one unattached upload and no document.
    const withFile = `${source}-file`;
    const url = await filesValue<string>("files:uploadUrl", {}, "carol", withFile);
    const live = (await upload(url, bytesOf(500, 16), "image/png")).body.storageId as string;
    // A shard with one pending job and no document (due in an hour: it stays pending).
    const withJob = `${source}-job`;
    await filesValue(
      "files:attachLater",
      { file: live, name: "later", delayMs: 60 * 60 * 1000 },
      "carol",
      withJob,
    );
    for (const [target, holds] of [
      [withFile, "1 in _svc_storage"],
      [withJob, "1 in _svc_scheduled"],
    ] as const) {
      const refused = await restore(target, backup.id);
      const problem = (await refused.json()) as { code: string; detail: string };
      expect(refused.status, problem.detail).toBe(409);
      expect(problem.code).toBe("CONFLICT");
      expect(problem.detail).toContain(`is not empty (0 documents, ${holds})`);
    }
    // The live file is as it was: its row and its bytes.
    expect(await filesValue("files:metadata", { file: live }, "carol", withFile)).toMatchObject({
      size: 500,
    });
    expect(await env.FILES.head(objectKey(withFile, live))).not.toBeNull();
  });

  it("restores a shard's files and its pending scheduled jobs together", async () => {
    const source = `files-jobs-${crypto.randomUUID().slice(0, 8)}`;
    const bytes = bytesOf(50_000, 5);
    const id = await shardWithFile(source, bytes);
    await filesValue(
      "files:attachLater",
      { file: id, name: "later", delayMs: 3_000 },
      "alice",
      source,
    );
    const backup = await adminJson<Backup>(`data/shards/${source}/backup?files=true`, 200, {
      method: "POST",
    });
    const lines = await backupLines(backup.id);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      files: 1,
      fileBytes: true,
      tables: { _svc_scheduled: 1 },
    });

    const target = `${source}-restored`;
    expect(await restoredInto(target, backup.id)).toMatchObject({
      documents: 1,
      tables: { _svc_scheduled: 1 },
    });
    const url = await filesValue<string>("files:url", { file: id }, "alice", target);
    expect(await sha256(await (await storageFetch(url)).arrayBuffer())).toBe(await sha256(bytes));
    // The restored job runs in the clone, as alice: a second attachment of the restored file.
    const until = Date.now() + 15_000;
    let references: unknown[] = [];
    while (references.length < 2) {
      if (Date.now() > until) throw new Error("the restored job never ran");
      await new Promise((resolve) => setTimeout(resolve, 200));
      const page = await adminJson<{ files: { references: unknown[] }[] }>(
        `files/shards/${target}`,
        200,
      );
      references = page.files[0]?.references ?? [];
    }
    expect(references).toHaveLength(2);
  });

  it("scheduled runs with backups.files carry the bytes, and a restore verifies them", async () => {
    expect(await adminJson("data/backups/schedule", 200)).toEqual({
      bucket: "BACKUPS",
      schedule: "30 3 * * *",
      keep: 7,
      files: true,
    });
    const source = `files-scheduled-${crypto.randomUUID().slice(0, 8)}`;
    const bytes = bytesOf(100_000, 13);
    const id = await shardWithFile(source, bytes);
    // The shard's registry partition keeps the run table of an svc before `files`: on its next
    // start it gains the column, and the run it starts carries the flag.
    const partition = registryPartitionName(registryPartitionOf(source));
    await runInDurableObject(env.FILES_SHARD.getByName(partition), (_instance, state) => {
      state.storage.sql.exec("DROP TABLE IF EXISTS _svc_backup_run");
      state.storage.sql.exec(
        "CREATE TABLE _svc_backup_run (id TEXT PRIMARY KEY, bucket TEXT NOT NULL, keep INTEGER NOT NULL, " +
          "after TEXT NOT NULL, done INTEGER NOT NULL, failed INTEGER NOT NULL, started_at REAL NOT NULL)",
      );
    });
    await forceEviction(partition, env.FILES_SHARD);
    const ctx = createExecutionContext();
    await filesWorker.scheduled(createScheduledController({ cron: "30 3 * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    const until = Date.now() + 15_000;
    let backup: Backup | undefined;
    while (backup === undefined) {
      if (Date.now() > until) throw new Error(`no scheduled backup of ${source}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      backup = (await adminJson<{ backups: Backup[] }>(`data/backups?shard=${source}`, 200))
        .backups[0];
    }
    await expectOneFileWithBytes(backup.id, 1);

    const target = `${source}-restored`;
    await restoredInto(target, backup.id);
    expect(await env.FILES.head(objectKey(target, id))).not.toBeNull();
    const url = await filesValue<string>("files:url", { file: id }, "alice", target);
    expect(await sha256(await (await storageFetch(url)).arrayBuffer())).toBe(await sha256(bytes));
  });
});
