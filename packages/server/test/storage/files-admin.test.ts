import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { DataAuditEntry } from "../../src/index.ts";
import { objectKey } from "../../src/storage/paths.ts";
import { FILES_ADMIN_TOKEN, FILES_AUDIT_PATH } from "./files-app.ts";
import {
  bytesOf,
  filesValue,
  operatorPut,
  sha256,
  storageFetch,
  upload,
} from "./storage-client.ts";

const ADMIN = { authorization: `Bearer ${FILES_ADMIN_TOKEN}` };

function admin(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set("authorization", ADMIN.authorization);
  return storageFetch(`/_svc/admin/files/${path}`, { ...init, headers });
}

/** Waits until the registry knows `shard` (the files admin routes serve known shards only). */
async function known(shard: string): Promise<void> {
  const until = Date.now() + 5_000;
  while ((await admin(`shards/${shard}`)).status === 404) {
    if (Date.now() > until) throw new Error(`the registry never listed ${shard}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("files admin routes", () => {
  it("list a shard's files with their owner documents, download, upload and delete", async () => {
    const shard = "files-admin";
    const url = await filesValue<string>("files:uploadUrl", {}, "alice", shard);
    const bytes = bytesOf(3_000, 4);
    const { body } = await upload(url, bytes, "image/png");
    const id = body.storageId as string;
    const attachment = await filesValue<string>(
      "files:attach",
      { file: id, name: "a" },
      "alice",
      shard,
    );
    await known(shard);

    const listed = await admin(`shards/${shard}`);
    expect(listed.status).toBe(200);
    expect(listed.headers.get("cache-control")).toBe("no-store");
    const page = (await listed.json()) as {
      files: Record<string, unknown>[];
      cursor: string | null;
    };
    expect(page.cursor).toBeNull();
    expect(page.files).toEqual([
      {
        storageId: id,
        state: "ready",
        size: 3_000,
        contentType: "image/png",
        sha256: await sha256(bytes),
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        uploader: "alice",
        references: [{ table: "attachments", id: attachment }],
      },
    ]);

    const download = await admin(`shards/${shard}/${id}`);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-disposition")).toBe(`attachment; filename="${id}"`);
    expect(await sha256(await download.arrayBuffer())).toBe(await sha256(bytes));

    const storageId = await operatorPut(admin, shard, "from the operator");
    expect(storageId).toMatch(/^_storage_/);
    const second = (await (await admin(`shards/${shard}?limit=1`)).json()) as {
      files: { storageId: string }[];
      cursor: string;
    };
    expect(second.files.map((file) => file.storageId)).toEqual([id]);
    const rest = (await (
      await admin(`shards/${shard}?cursor=${encodeURIComponent(second.cursor)}`)
    ).json()) as { files: { storageId: string; uploader: string | null; size: number }[] };
    expect(rest.files).toMatchObject([{ storageId, uploader: null, size: 17 }]);

    const deleted = await admin(`shards/${shard}/${id}`, { method: "DELETE" });
    expect(await deleted.json()).toEqual({ deleted: true });
    expect(await env.FILES.head(objectKey(shard, id))).toBeNull();
    expect(await filesValue("files:metadata", { file: id }, "alice", shard)).toBeNull();
    const again = await admin(`shards/${shard}/${id}`, { method: "DELETE" });
    expect(again.status).toBe(404);
  });

  it("hash uploads not hashed yet as they list them, up to 64 MiB read per page", async () => {
    const shard = "files-admin-hashing";
    await filesValue("files:storeText", { text: "hashed when stored" }, "alice", shard);
    await known(shard);
    const big = bytesOf(40 * 1024 * 1024, 21);
    const next = bytesOf(30 * 1024 * 1024, 22);
    const bigId = await operatorPut(admin, shard, big);
    const nextId = await operatorPut(admin, shard, next);
    const hashes = async () => {
      const page = (await (await admin(`shards/${shard}`)).json()) as {
        files: { storageId: string; sha256: string | null }[];
      };
      return new Map(page.files.map((file) => [file.storageId, file.sha256]));
    };
    // 40 MiB read back, then 30 more would pass the page's 64 MiB: that one waits.
    const first = await hashes();
    expect(first.get(bigId)).toBe(await sha256(big));
    expect(first.get(nextId)).toBeNull();
    const until = Date.now() + 10_000;
    let again = await hashes();
    while (again.get(nextId) === null && Date.now() < until) again = await hashes();
    expect(again.get(bigId)).toBe(await sha256(big));
    expect(again.get(nextId)).toBe(await sha256(next));
  });

  it("delete every file's bytes when the shard's data is deleted", async () => {
    const shard = "files-admin-wipe";
    for (const seed of [1, 2]) {
      const url = await filesValue<string>("files:uploadUrl", {}, "alice", shard);
      expect((await upload(url, bytesOf(1_000, seed))).status).toBe(200);
    }
    await known(shard);
    expect((await env.FILES.list({ prefix: objectKey(shard, "") })).objects).toHaveLength(2);
    const wiped = await storageFetch(`/_svc/admin/data/shards/${shard}?confirm=${shard}`, {
      method: "DELETE",
      headers: ADMIN,
    });
    expect(wiped.status).toBe(200);
    expect((await env.FILES.list({ prefix: objectKey(shard, "") })).objects).toEqual([]);
  });

  it("refuse an upload whose Content-Type is not one media type", async () => {
    const shard = "files-admin-type-list";
    await filesValue("files:storeText", { text: "known" }, "alice", shard);
    await known(shard);
    const before = (await env.FILES.list({ prefix: objectKey(shard, "") })).objects.length;
    const refused = await admin(`shards/${shard}`, {
      method: "POST",
      headers: { "content-type": "video/mp4,text/html" },
      body: "<script>alert(1)</script>",
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      code: "BAD_REQUEST",
      data: { reason: "content_type" },
    });
    expect((await env.FILES.list({ prefix: objectKey(shard, "") })).objects).toHaveLength(before);
  });

  it("audit the operator's uploads and deletes, refused ones too", async () => {
    const shard = "files-admin-audit";
    await filesValue("files:storeText", { text: "known" }, "alice", shard);
    await known(shard);
    const audit = async () =>
      ((await (await storageFetch(FILES_AUDIT_PATH)).json()) as DataAuditEntry[]).filter(
        (entry) => entry.targetId === shard,
      );
    const id = await operatorPut(admin, shard, "audited");
    expect((await admin(`shards/${shard}/${id}`, { method: "DELETE" })).status).toBe(200);
    expect((await admin(`shards/${shard}/${id}`, { method: "DELETE" })).status).toBe(404);
    expect(await audit()).toEqual([
      {
        operator: "admin",
        action: "file.upload",
        targetType: "shard",
        targetId: shard,
        outcome: "ok",
        detail: `stored ${id} (7 bytes, text/plain)`,
      },
      {
        operator: "admin",
        action: "file.delete",
        targetType: "shard",
        targetId: shard,
        outcome: "ok",
        detail: `deleted ${id}`,
      },
      {
        operator: "admin",
        action: "file.delete",
        targetType: "shard",
        targetId: shard,
        outcome: "error",
        detail: "No such file.",
      },
    ]);
  });

  it("remove an upload's bytes when the shard refuses to record them", async () => {
    const shard = "files-admin-abandoned";
    await filesValue("files:storeText", { text: "known" }, "alice", shard);
    await known(shard);
    // A body of unknown length that waits, mid-way, until the test lets it end.
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent === 1) await finished;
        if (sent === 2) return controller.close();
        controller.enqueue(bytesOf(1_000, sent));
        sent += 1;
      },
    });
    const put = admin(`shards/${shard}`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body,
    });
    // While its bytes stream, another operator deletes the file being uploaded.
    let uploading: string | undefined;
    const until = Date.now() + 5_000;
    while (uploading === undefined) {
      if (Date.now() > until) throw new Error("the upload never showed in the list");
      const page = (await (await admin(`shards/${shard}`)).json()) as {
        files: { storageId: string; state: string }[];
      };
      uploading = page.files.find((file) => file.state === "uploading")?.storageId;
      if (uploading === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await admin(`shards/${shard}/${uploading}`, { method: "DELETE" })).status).toBe(200);
    finish();
    const answer = await put;
    expect(answer.status).toBe(409);
    expect(await answer.json()).toMatchObject({ code: "CONFLICT", data: { reason: "abandoned" } });
    expect(await env.FILES.head(objectKey(shard, uploading))).toBeNull();
  });

  it("answer 401 without the admin token and 404 for a shard the registry does not know", async () => {
    const bare = await storageFetch("/_svc/admin/files/shards/files-admin");
    expect(bare.status).toBe(401);
    const unknown = await admin("shards/files-never-written");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: "NOT_FOUND" });
  });
});
