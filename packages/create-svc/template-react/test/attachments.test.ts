import type { Id } from "@svc/server";
import { createTest } from "@svc/testing";
import { describe, expect, it } from "vitest";
import { api } from "../svc/_generated/api.ts";

// The upload itself (bytes through the signed URL, progress, download) is driven in Chromium by
// test/browser/notes.browser.ts; these are the procedures' own rules.
const ann = { userId: "ann" };
const bob = { userId: "bob" };
const missingFile = "_storage_0000000000000000000000000a" as Id<"_storage">;

describe("attachments", () => {
  it("issues upload URLs to signed-in users only", async () => {
    const t = createTest();
    const url = await t.as(ann).mutation(api.attachments.uploadUrl);
    expect(url).toMatch(/^\/_svc\/storage\//);
    const anonymous = t.mutation(api.attachments.uploadUrl);
    await expect(anonymous).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
  });

  it("attaches only to the caller's own notes, and only files that exist", async () => {
    const t = createTest();
    const bobs = await t.as(bob).mutation(api.notes.add, { text: "bob's" });
    const intoBobs = t.as(ann).mutation(api.attachments.attach, { note: bobs, file: missingFile });
    await expect(intoBobs).rejects.toMatchObject({ code: "NOT_FOUND" });
    const anns = await t.as(ann).mutation(api.notes.add, { text: "ann's" });
    const noFile = t.as(ann).mutation(api.attachments.attach, { note: anns, file: missingFile });
    await expect(noFile).rejects.toMatchObject({ code: "NOT_FOUND", message: "No such file." });
    expect(await t.as(ann).query(api.attachments.urls)).toEqual({});
  });
});
