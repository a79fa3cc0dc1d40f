import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { showsInline } from "../../src/storage/download-headers.ts";
import { objectKey } from "../../src/storage/paths.ts";
import { deletedFiles, forgetFile, insertPending, markDeleted } from "../../src/storage/table.ts";
import { bytesOf, filesCall, filesValue, sha256, storageFetch, upload } from "./storage-client.ts";

/** Issues an upload URL as `user` and uploads `bytes` through it. */
async function uploaded(
  shard: string,
  user: string,
  bytes: Uint8Array,
  contentType = "application/octet-stream",
): Promise<string> {
  const url = await filesValue<string>("files:uploadUrl", {}, user, shard);
  const { status, body } = await upload(url, bytes, contentType);
  expect(status).toBe(200);
  return body.storageId as string;
}

/** The token with one character of its signature changed. */
function flipped(token: string): string {
  const at = token.indexOf(".") + 5;
  return `${token.slice(0, at)}${token[at] === "A" ? "B" : "A"}${token.slice(at + 1)}`;
}

/**
 * The token with its signature's last character spelled otherwise: the
 * same bytes (base64's spare bits differ), which must not count as the same
 * token.
 */
function nonCanonical(token: string): string {
  const last = token.at(-1)!;
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const index = alphabet.indexOf(last);
  return `${token.slice(0, -1)}${alphabet[(index & ~3) | ((index + 1) & 3)]}`;
}

/** `bytes` as a stream made in JavaScript (its length unknown to the runtime), 1,000 at a time. */
function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (let at = 0; at < bytes.length; at += 1000)
        controller.enqueue(bytes.slice(at, at + 1000));
      controller.close();
    },
  });
}

async function objectsIn(shard: string): Promise<string[]> {
  const listed = await env.FILES.list({ prefix: objectKey(shard, "") });
  return listed.objects.map((object) => object.key);
}

async function eventually(check: () => Promise<boolean>, ms = 5_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("upload through a generated URL and read back", () => {
  it("stores the bytes and serves them byte-identical, whole and by range", async () => {
    const shard = "files-roundtrip";
    const bytes = bytesOf(300_000, 7);
    const id = await uploaded(shard, "alice", bytes, "image/png");
    expect(id).toMatch(/^_storage_[0-9a-z]{26}$/);

    const metadata = await filesValue<Record<string, unknown>>(
      "files:metadata",
      { file: id },
      "alice",
      shard,
    );
    expect(metadata).toMatchObject({
      storageId: id,
      size: bytes.length,
      contentType: "image/png",
      sha256: await sha256(bytes),
    });

    const url = await filesValue<string>("files:url", { file: id }, "alice", shard);
    const whole = await storageFetch(url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-type")).toBe("image/png");
    expect(whole.headers.get("content-length")).toBe(String(bytes.length));
    expect(whole.headers.get("content-disposition")).toBe("inline");
    expect(whole.headers.get("x-content-type-options")).toBe("nosniff");
    expect(whole.headers.get("cache-control")).toMatch(/^private, max-age=\d+, immutable$/);
    expect(await sha256(await whole.arrayBuffer())).toBe(await sha256(bytes));

    const middle = await storageFetch(url, { headers: { range: "bytes=1000-65535" } });
    expect(middle.status).toBe(206);
    expect(middle.headers.get("content-range")).toBe(`bytes 1000-65535/${bytes.length}`);
    expect(await sha256(await middle.arrayBuffer())).toBe(await sha256(bytes.slice(1000, 65536)));

    const tail = await storageFetch(url, { headers: { range: "bytes=-500" } });
    expect(tail.status).toBe(206);
    expect(tail.headers.get("content-range")).toBe(
      `bytes ${bytes.length - 500}-${bytes.length - 1}/${bytes.length}`,
    );
    expect(await sha256(await tail.arrayBuffer())).toBe(await sha256(bytes.slice(-500)));

    const open = await storageFetch(url, { headers: { range: "bytes=299000-" } });
    expect(open.status).toBe(206);
    expect((await open.arrayBuffer()).byteLength).toBe(1000);

    const past = await storageFetch(url, { headers: { range: "bytes=400000-400010" } });
    expect(past.status).toBe(416);
    expect(past.headers.get("content-range")).toBe(`bytes */${bytes.length}`);
  });

  it("hashes an upload on first need, from its bytes in R2, and keeps that sha256", async () => {
    const shard = "files-lazy-sha256";
    const bytes = bytesOf(200_000, 11);
    const id = await uploaded(shard, "alice", bytes);
    const recorded = () =>
      runInDurableObject(env.FILES_SHARD.getByName(shard), (_instance, state) =>
        state.storage.sql
          .exec<{ sha256: string | null }>("SELECT sha256 FROM _svc_storage WHERE id = ?", id)
          .one(),
      );
    // The upload streamed its bytes into R2 and hashed none of them.
    expect(await recorded()).toEqual({ sha256: null });

    const first = await filesValue<{ sha256: string }>(
      "files:metadata",
      { file: id },
      "alice",
      shard,
    );
    expect(first.sha256).toBe(await sha256(bytes));
    await eventually(async () => (await recorded()).sha256 === first.sha256);
    // Recorded: later reads answer it without reading the bytes again (changed here behind svc's back).
    await env.FILES.put(objectKey(shard, id), bytesOf(200_000, 12));
    const again = await filesValue<{ sha256: string }>(
      "files:metadata",
      { file: id },
      "alice",
      shard,
    );
    expect(again.sha256).toBe(first.sha256);
  });

  it("answers 304 to If-None-Match with the file's ETag", async () => {
    const shard = "files-etag";
    const id = await uploaded(shard, "alice", bytesOf(1000, 3), "text/plain");
    const url = await filesValue<string>("files:url", { file: id }, "alice", shard);
    const first = await storageFetch(url);
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^".+"$/);
    await first.arrayBuffer();
    const again = await storageFetch(url, { headers: { "if-none-match": etag as string } });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect(await again.text()).toBe("");
    const changed = await storageFetch(url, { headers: { "if-none-match": '"other"' } });
    expect(changed.status).toBe(200);
    expect((await changed.arrayBuffer()).byteLength).toBe(1000);
  });

  it("serves HTML and SVG as attachments, never inline, with the file name asked for", async () => {
    const shard = "files-html";
    for (const type of ["text/html", "image/svg+xml"]) {
      const id = await uploaded(
        shard,
        "alice",
        new TextEncoder().encode("<script>alert(1)</script>"),
        type,
      );
      const url = await filesValue<string>(
        "files:url",
        { file: id, filename: "page é.html" },
        "alice",
        shard,
      );
      const response = await storageFetch(url);
      expect(response.headers.get("content-type")).toBe(type);
      expect(response.headers.get("content-disposition")).toBe(
        `attachment; filename="page _.html"; filename*=UTF-8''page%20%C3%A9.html`,
      );
      expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
      await response.arrayBuffer();
    }
  });

  it("stores and reads back bytes from an action", async () => {
    const shard = "files-action";
    const id = await filesValue<string>(
      "files:storeText",
      { text: "hello, files", contentType: "text/plain" },
      "alice",
      shard,
    );
    expect(await filesValue("files:readText", { file: id }, "alice", shard)).toBe("hello, files");
    expect(await filesValue("files:readText", { file: id }, "bob", shard)).toBeNull();
    const metadata = await filesValue<{ sha256: string; size: number }>(
      "files:metadata",
      { file: id },
      "alice",
      shard,
    );
    expect(metadata.sha256).toBe(await sha256(new TextEncoder().encode("hello, files")));
    expect(metadata.size).toBe(12);
  });
});

describe("who may read a file", () => {
  it("is whoever may read a document that references it; others get null and 404", async () => {
    const shard = "files-access";
    const bytes = bytesOf(2_000, 11);
    const id = await uploaded(shard, "alice", bytes);
    // Unreferenced: the uploader only.
    expect(await filesValue("files:url", { file: id }, "bob", shard)).toBeNull();
    expect(await filesValue("files:metadata", { file: id }, null, shard)).toBeNull();
    const aliceUrl = await filesValue<string>("files:url", { file: id }, "alice", shard);
    expect(aliceUrl).toContain(`/_svc/storage/files/${id}?token=`);

    await filesValue("files:attach", { file: id, name: "report" }, "alice", shard);
    // Referenced by alice's attachment, which RLS hides from bob.
    expect(await filesValue("files:url", { file: id }, "bob", shard)).toBeNull();
    expect(await filesValue("files:metadata", { file: id }, "bob", shard)).toBeNull();
    expect(await filesValue("files:url", { file: id }, "alice", shard)).not.toBeNull();

    // Bob, knowing the id, cannot read the bytes without a URL issued to someone who may.
    for (const path of [
      `/_svc/storage/files/${id}`,
      `/_svc/storage/files/${id}?token=`,
      `/_svc/storage/files/${id}?token=${flipped(aliceUrl.split("token=")[1]!)}`,
      `/_svc/storage/files/${id}?token=${nonCanonical(aliceUrl.split("token=")[1]!)}`,
    ]) {
      const response = await storageFetch(path);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ code: "NOT_FOUND" });
    }
    // A URL for one file does not open another.
    const other = await uploaded(shard, "alice", bytesOf(10, 2));
    const swapped = await storageFetch(aliceUrl.replace(id, other));
    expect(swapped.status).toBe(404);
  });

  it("counts a reference inside an array field", async () => {
    const shard = "files-album";
    const first = await uploaded(shard, "carol", bytesOf(10, 1));
    const second = await uploaded(shard, "carol", bytesOf(10, 2));
    await filesValue("files:album", { photos: [first, second] }, "carol", shard);
    expect(await filesValue("files:metadata", { file: second }, "carol", shard)).not.toBeNull();
    expect(await filesValue("files:metadata", { file: second }, "dave", shard)).toBeNull();
  });

  it("counts only the id fields inside an array or record of objects, never text beside them", async () => {
    const shard = "files-gallery";
    const secret = await uploaded(shard, "alice", bytesOf(10, 3));
    await filesValue("files:attach", { file: secret, name: "private" }, "alice", shard);
    const unreferenced = await uploaded(shard, "alice", bytesOf(10, 4));
    const own = await uploaded(shard, "mallory", bytesOf(10, 5));
    // Ids appear in download URLs: mallory writes alice's as free text beside her own file.
    await filesValue(
      "files:gallery",
      {
        items: [{ file: own, caption: secret }],
        labels: { x: { file: own, note: unreferenced } },
      },
      "mallory",
      shard,
    );
    expect(await filesValue("files:url", { file: secret }, "mallory", shard)).toBeNull();
    expect(await filesValue("files:metadata", { file: unreferenced }, "mallory", shard)).toBeNull();
    expect(await filesValue("files:url", { file: own }, "mallory", shard)).not.toBeNull();
    // The id fields themselves still reference, in the array and in the record.
    const inItems = await uploaded(shard, "carol", bytesOf(10, 6));
    const inLabels = await uploaded(shard, "carol", bytesOf(10, 7));
    await filesValue(
      "files:gallery",
      { items: [{ file: inItems, caption: "a" }], labels: { y: { file: inLabels, note: "b" } } },
      "carol",
      shard,
    );
    for (const file of [inItems, inLabels]) {
      expect(await filesValue("files:metadata", { file }, "carol", shard)).not.toBeNull();
      expect(await filesValue("files:metadata", { file }, "dave", shard)).toBeNull();
    }
    // A caption naming a file does not keep it from being collected.
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    const stub = env.FILES_SHARD.getByName(
      shard,
    ) as unknown as import("../../src/storage/endpoint.ts").StorageEndpoint;
    expect(await stub.storageCollect()).toEqual({ ok: true, value: 1 });
    expect(await objectsIn(shard)).not.toContain(objectKey(shard, unreferenced));
  });

  it("refuses a malformed storage id with a clear error", async () => {
    const { status, body } = await filesCall(
      "files:metadata",
      { file: "notes_abc" },
      "alice",
      "files-bad-id",
    );
    expect(status).toBe(400);
    expect(body.code).toBe("VALIDATION_FAILED");
  });
});

describe("upload URLs are signed, short-lived and single-use", () => {
  it("refuses an expired URL", async () => {
    const shard = "files-expired";
    const url = await filesValue<string>("files:uploadUrl", { expiresInMs: 1 }, "alice", shard);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const { status, body } = await upload(url, bytesOf(10));
    expect(status).toBe(403);
    expect(body).toMatchObject({ code: "FORBIDDEN", data: { reason: "expired" } });
    expect(await objectsIn(shard)).toEqual([]);
  });

  it("refuses a forged URL: a changed grant or signature, or none", async () => {
    const shard = "files-forged";
    const url = await filesValue<string>("files:uploadUrl", { maxBytes: 10 }, "alice", shard);
    const [payload, signature] = url.split("token=")[1]!.split(".") as [string, string];
    const grant = JSON.parse(atob(payload.replaceAll("-", "+").replaceAll("_", "/"))) as Record<
      string,
      unknown
    >;
    const bigger = btoa(JSON.stringify({ ...grant, maxBytes: 1_000_000 }))
      .replaceAll("+", "-")
      .replaceAll("/", "_")
      .replace(/=+$/, "");
    for (const token of [
      `${bigger}.${signature}`,
      flipped(`${payload}.${signature}`),
      payload,
      "",
    ]) {
      const { status, body } = await upload(`/_svc/storage/upload?token=${token}`, bytesOf(100));
      expect(status).toBe(403);
      expect(body).toMatchObject({ code: "FORBIDDEN", data: { reason: "forged" } });
    }
    expect(await objectsIn(shard)).toEqual([]);
  });

  it("refuses a second use, and a URL whose mutation rolled back", async () => {
    const shard = "files-reused";
    const url = await filesValue<string>("files:uploadUrl", {}, "alice", shard);
    expect((await upload(url, bytesOf(10))).status).toBe(200);
    const again = await upload(url, bytesOf(20));
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: "CONFLICT", data: { reason: "used" } });
    expect(await objectsIn(shard)).toHaveLength(1);

    const failed = await filesCall("files:uploadUrlThenFail", {}, "alice", shard);
    expect(failed.status).toBe(409);
    const rolledBack = await upload(
      (failed.body as { detail: string } & object).detail,
      bytesOf(10),
    );
    expect(rolledBack.status).toBe(409);
    expect(rolledBack.body).toMatchObject({ data: { reason: "used" } });
    expect(await objectsIn(shard)).toHaveLength(1);
  });

  it("refuses the URL of a deleted file, keeping nothing of the body", async () => {
    const shard = "files-reused-deleted";
    const url = await filesValue<string>("files:uploadUrl", {}, "alice", shard);
    const first = await upload(url, bytesOf(10));
    expect(first.status).toBe(200);
    await filesValue("files:remove", { file: first.body.storageId }, "alice", shard);
    await eventually(async () => (await objectsIn(shard)).length === 0);
    const again = await upload(url, bytesOf(20));
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: "CONFLICT", data: { reason: "used" } });
    expect(await objectsIn(shard)).toEqual([]);
    expect(
      await filesValue("files:metadata", { file: first.body.storageId }, "alice", shard),
    ).toBeNull();
  });

  it("stores one file when the same URL is used twice at once", async () => {
    const shard = "files-reused-racing";
    const url = await filesValue<string>("files:uploadUrl", {}, "alice", shard);
    const [one, two] = [bytesOf(300_000, 6), bytesOf(300_000, 7)];
    const answers = await Promise.all([upload(url, one), upload(url, two)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const winner = answers.find((answer) => answer.status === 200)!;
    const id = winner.body.storageId as string;
    expect(await objectsIn(shard)).toEqual([objectKey(shard, id)]);
    const download = await filesValue<string>("files:url", { file: id }, "alice", shard);
    const stored = await (await storageFetch(download)).arrayBuffer();
    const sent = answers[0] === winner ? one : two;
    expect(await sha256(stored)).toBe(await sha256(sent));
  });

  it("refuses an oversized body or a disallowed type with nothing stored, and the URL still usable", async () => {
    const shard = "files-limits";
    const url = await filesValue<string>(
      "files:uploadUrl",
      { maxBytes: 1_000, contentTypes: ["image/*", "application/pdf"] },
      "alice",
      shard,
    );
    const big = await upload(url, bytesOf(1_001), "image/png");
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ code: "PAYLOAD_TOO_LARGE", data: { reason: "too_large" } });
    const html = await upload(url, bytesOf(10), "text/html");
    expect(html.status).toBe(400);
    expect(html.body).toMatchObject({ code: "BAD_REQUEST", data: { reason: "content_type" } });
    expect(await objectsIn(shard)).toEqual([]);
    const fits = await upload(url, bytesOf(1_000), "image/jpeg; charset=binary");
    expect(fits.status).toBe(200);
    expect(await objectsIn(shard)).toEqual([objectKey(shard, fits.body.storageId as string)]);
  });

  it("refuses a Content-Type that is not one media type, though its first part is allowed", async () => {
    const shard = "files-type-list";
    for (const [allowed, sent] of [
      ["video/*", "video/mp4,text/html"],
      ["image/*", "image/png, text/html"],
      ["image/*", "image/png;charset=x,text/html"],
      ["image/*", "image/png/html"],
    ] as const) {
      const url = await filesValue<string>(
        "files:uploadUrl",
        { contentTypes: [allowed] },
        "alice",
        shard,
      );
      const refused = await upload(url, bytesOf(10), sent);
      expect(refused.status, sent).toBe(400);
      expect(refused.body).toMatchObject({ code: "BAD_REQUEST", data: { reason: "content_type" } });
    }
    expect(await objectsIn(shard)).toEqual([]);
    // One type with parameters (a quoted one too) still passes, stored without them.
    const url = await filesValue<string>(
      "files:uploadUrl",
      { contentTypes: ["image/*"] },
      "alice",
      shard,
    );
    const fits = await upload(url, bytesOf(10), 'Image/PNG; name="a, b.png"');
    expect(fits.status).toBe(200);
    const metadata = await filesValue<{ contentType: string }>(
      "files:metadata",
      { file: fits.body.storageId },
      "alice",
      shard,
    );
    expect(metadata.contentType).toBe("image/png");
    // A type stored before uploads were checked is never shown inline.
    expect(showsInline("video/mp4,text/html")).toBe(false);
    expect(showsInline("video/mp4")).toBe(true);
  });

  it("takes a streamed body without Content-Length, and refuses one that runs over", async () => {
    const shard = "files-streamed";
    const bytes = bytesOf(25_000, 9);
    const url = await filesValue<string>("files:uploadUrl", { maxBytes: 25_000 }, "alice", shard);
    const response = await storageFetch(url, {
      method: "POST",
      headers: { "content-type": "text/csv" },
      body: streamOf(bytes),
    });
    const { storageId } = (await response.json()) as { storageId: string };
    expect(response.status).toBe(200);
    expect(await filesValue("files:metadata", { file: storageId }, "alice", shard)).toMatchObject({
      size: 25_000,
      contentType: "text/csv",
      sha256: await sha256(bytes),
    });

    const small = await filesValue<string>("files:uploadUrl", { maxBytes: 5_000 }, "alice", shard);
    const over = await storageFetch(small, {
      method: "POST",
      headers: { "content-type": "text/csv" },
      body: streamOf(bytesOf(6_000)),
    });
    expect(over.status).toBe(413);
    expect(await over.json()).toMatchObject({
      code: "PAYLOAD_TOO_LARGE",
      data: { reason: "too_large" },
    });
    expect(await objectsIn(shard)).toEqual([objectKey(shard, storageId)]);
  });

  it("refuses a body that is not the length its Content-Length declared, with nothing stored", async () => {
    const shard = "files-length";
    const post = async (body: BodyInit, declared: number) => {
      const url = await filesValue<string>("files:uploadUrl", {}, "alice", shard);
      const response = await storageFetch(url, {
        method: "POST",
        headers: { "content-type": "text/csv", "content-length": String(declared) },
        body,
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    // A stream whose length the runtime does not know, declared exactly: stored.
    const bytes = bytesOf(5_000, 4);
    const exact = await post(streamOf(bytes), 5_000);
    expect(exact.status).toBe(200);
    const storageId = exact.body.storageId as string;
    expect(await filesValue("files:metadata", { file: storageId }, "alice", shard)).toMatchObject({
      size: 5_000,
      sha256: await sha256(bytes),
    });
    // Shorter or longer than declared, whether the runtime knows its length or not: refused.
    for (const [body, declared] of [
      [streamOf(bytesOf(4_000)), 5_000],
      [streamOf(bytesOf(6_000)), 5_000],
      [bytesOf(4_000), 5_000],
      [bytesOf(6_000), 5_000],
    ] as const) {
      const refused = await post(body, declared);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({
        code: "BAD_REQUEST",
        data: { reason: "length_mismatch" },
      });
    }
    await eventually(async () => (await objectsIn(shard)).length === 1);
    expect(await objectsIn(shard)).toEqual([objectKey(shard, storageId)]);
    // Nothing of a refused body was kept, so its URL still takes the right one.
    const url = await filesValue<string>("files:uploadUrl", {}, "alice", shard);
    const short = await storageFetch(url, {
      method: "POST",
      headers: { "content-type": "text/csv", "content-length": "5000" },
      body: bytesOf(4_000),
    });
    expect(short.status).toBe(400);
    const retried = await upload(url, bytesOf(5_000, 5), "text/csv");
    expect(retried.status).toBe(200);
    expect((await objectsIn(shard)).sort()).toEqual(
      [objectKey(shard, storageId), objectKey(shard, retried.body.storageId as string)].sort(),
    );
  });

  it("refuses options out of bounds in the mutation", async () => {
    const { status } = await filesCall(
      "files:uploadUrl",
      { maxBytes: 0 },
      "alice",
      "files-options",
    );
    expect(status).toBe(500);
  });
});

describe("deleting and collecting files", () => {
  it("delete removes the bytes and the metadata", async () => {
    const shard = "files-delete";
    const id = await uploaded(shard, "alice", bytesOf(5_000));
    await filesValue("files:attach", { file: id, name: "x" }, "alice", shard);
    const url = await filesValue<string>("files:url", { file: id }, "alice", shard);
    expect(await objectsIn(shard)).toEqual([objectKey(shard, id)]);
    await filesValue("files:remove", { file: id }, "alice", shard);
    expect(await filesValue("files:metadata", { file: id }, "alice", shard)).toBeNull();
    await eventually(async () => (await objectsIn(shard)).length === 0);
    expect((await storageFetch(url)).status).toBe(404);
    const again = await filesCall("files:remove", { file: id }, "alice", shard);
    expect(again.status).toBe(404);
  });

  it("collects unreferenced uploads older than the bound, keeping referenced ones", async () => {
    const shard = "files-collect";
    const kept = await uploaded(shard, "alice", bytesOf(100, 1));
    const dropped = await uploaded(shard, "alice", bytesOf(100, 2));
    await filesValue("files:attach", { file: kept, name: "kept" }, "alice", shard);
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    const stub = env.FILES_SHARD.getByName(
      shard,
    ) as unknown as import("../../src/storage/endpoint.ts").StorageEndpoint;
    expect(await stub.storageCollect()).toEqual({ ok: true, value: 1 });
    expect(await objectsIn(shard)).toEqual([objectKey(shard, kept)]);
    expect(await filesValue("files:metadata", { file: dropped }, "alice", shard)).toBeNull();
    expect(await filesValue("files:metadata", { file: kept }, "alice", shard)).not.toBeNull();
  });
  it("finds what to remove without reading every upload URL still open", async () => {
    const shard = "files-sweep-index";
    const id = await uploaded(shard, "alice", bytesOf(10));
    const { found, rowsRead } = await runInDurableObject(
      env.FILES_SHARD.getByName(shard),
      (_instance, state) => {
        const { sql } = state.storage;
        const open = Date.now() + 60_000;
        for (let i = 0; i < 2_000; i++)
          insertPending(sql, { id: `open-${i}`, now: i, expiresAt: open, uploader: null });
        insertPending(sql, { id: "expired", now: 0, expiresAt: 1, uploader: null });
        markDeleted(sql, id);
        // The real table and SQLite, counting the rows each query read.
        let rowsRead = 0;
        const counting = {
          exec: (query: string, ...bindings: SqlStorageValue[]) => {
            const cursor = sql.exec(query, ...bindings);
            const rows = cursor.toArray();
            rowsRead += cursor.rowsRead;
            return { toArray: () => rows };
          },
        } as unknown as SqlStorage;
        const found = deletedFiles(counting, Date.now(), 0, 100);
        for (let i = 0; i < 2_000; i++) forgetFile(sql, `open-${i}`);
        return { found, rowsRead };
      },
    );
    expect(found.sort()).toEqual([id, "expired"].sort());
    expect(rowsRead).toBeLessThan(20);
  });
});
