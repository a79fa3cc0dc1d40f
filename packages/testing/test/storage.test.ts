import { describe, expect, it } from "vitest";
import { createTest } from "../src/index.ts";
import { api } from "./fixture/api.ts";

const ann = { userId: "ann" };
const bob = { userId: "bob" };

describe("t.storage: the shard's files on Miniflare's R2", () => {
  it("stores a file as the harness's user, which the app's own rules then apply to", async () => {
    const t = createTest();
    const id = await t.as(ann).storage.store(new Blob(["hello, files"], { type: "text/plain" }));
    expect(id).toMatch(/^_storage_[0-9a-z]{26}$/);
    const metadata = await t.storage.getMetadata(id);
    expect(metadata).toMatchObject({ storageId: id, size: 12, contentType: "text/plain" });
    // SHA-256 of "hello, files", computed by the shard as the bytes went to R2.
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode("hello, files"));
    const hex = Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0"));
    expect(metadata?.sha256).toBe(hex.join(""));
    // An upload no document references is its uploader's alone, as in production.
    expect(await t.as(ann).query(api.files.size, { file: id })).toBe(12);
    expect(await t.as(bob).query(api.files.size, { file: id })).toBeNull();
  });

  it("reads back the bytes and type a procedure stored", async () => {
    const t = createTest().as(ann);
    await t.mutation(api.notes.add, { text: "first" });
    await t.mutation(api.notes.add, { text: "second" });
    const id = await t.action(api.files.exportNotes);
    expect(await t.storage.text(id)).toBe("first\nsecond");
    const blob = await t.storage.get(id);
    expect(blob?.type).toBe("text/plain");
    expect(blob?.size).toBe(12);
  });

  it("deletes files and keeps each test's files apart", async () => {
    const t = createTest();
    const id = await t.storage.store("bytes", { contentType: "application/octet-stream" });
    // Another test's harness names its shard differently: the file is not there.
    expect(await createTest().storage.getMetadata(id)).toBeNull();
    await t.storage.delete(id);
    expect(await t.storage.get(id)).toBeNull();
    expect(await t.storage.getMetadata(id)).toBeNull();
    await expect(t.storage.delete(id)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
