import { createTest } from "@svc/testing";
import { describe, expect, it } from "vitest";
import { api } from "../../svc/_generated/api.ts";

/**
 * The messages procedures on the app's own shard class (docs/testing.md):
 * RLS, validation and the notice a send leaves. What HTTP adds (encodings,
 * sessions, limits) is tested under `wrangler dev` in test/node/.
 */
const ann = { userId: "ann" };
const bob = { userId: "bob" };

describe("messages", () => {
  it("lists a channel's messages for their author alone, newest first", async () => {
    const t = createTest();
    await t.as(ann).mutation(api.messages.send, { body: "one" });
    await t.as(ann).mutation(api.messages.send, { body: "two" });
    await t.as(ann).mutation(api.messages.send, { body: "elsewhere", channel: "random" });
    const general = await t.as(ann).query(api.messages.list, {});
    expect(general.map((message) => message.body)).toEqual(["two", "one"]);
    expect(await t.as(bob).query(api.messages.list, {})).toEqual([]);
    const page = await t.as(ann).query(api.messages.page, { cursor: null, numItems: 1 });
    expect(page.page).toMatchObject([{ body: "one" }]);
    expect(page.isDone).toBe(false);
  });

  it("searches the caller's messages by words, most relevant first, narrowed by channel", async () => {
    const t = createTest();
    await t.as(ann).mutation(api.messages.send, { body: "deploy on friday" });
    await t.as(ann).mutation(api.messages.send, { body: "deploy deploy deploy" });
    await t.as(ann).mutation(api.messages.send, { body: "deploy notes", channel: "ops" });
    await t.as(bob).mutation(api.messages.send, { body: "deploy by bob" });
    const found = await t.as(ann).query(api.messages.search, { text: "depl" });
    expect(found.map((message) => message.body)).toEqual([
      "deploy deploy deploy",
      "deploy notes",
      "deploy on friday",
    ]);
    const ops = await t.as(ann).query(api.messages.search, { text: "deploy", channel: "ops" });
    expect(ops.map((message) => message.body)).toEqual(["deploy notes"]);
    expect(await t.as(bob).query(api.messages.search, { text: "friday" })).toEqual([]);
    // White space alone is refused by the validator, as the published schema says (pattern \S).
    await expect(t.as(ann).query(api.messages.search, { text: " " })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });
  });

  it("refuses anonymous, empty and oversized messages", async () => {
    const t = createTest();
    await expect(t.mutation(api.messages.send, { body: "hi" })).rejects.toMatchObject({
      code: "UNAUTHENTICATED",
    });
    await expect(t.as(ann).mutation(api.messages.send, { body: "  " })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });
    const long = t.as(ann).mutation(api.messages.send, { body: "x".repeat(2001) });
    await expect(long).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
    expect(await t.run(({ db }) => db.query("messages").collect())).toEqual([]);
  });

  it("lets only the author remove a message (another user's delete: NOT_FOUND, as a missing id)", async () => {
    const t = createTest();
    const id = await t.as(ann).mutation(api.messages.send, { body: "mine" });
    await expect(t.as(bob).mutation(api.messages.remove, { id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await t.as(ann).mutation(api.messages.remove, { id });
    expect(await t.run(({ db }) => db.get(id))).toBeNull();
  });

  it("posts a fixed public notice for each message, readable by anyone", async () => {
    const t = createTest();
    await t.as(ann).mutation(api.messages.send, { body: "a secret", channel: "private" });
    const notices = await t.query(api.messages.notices);
    expect(notices).toMatchObject([{ event: "message_posted", text: "A new message was posted." }]);
    expect(JSON.stringify(notices)).not.toMatch(/secret|private|ann/);
  });

  it("counts the caller's words in an action", async () => {
    const t = createTest();
    await t.as(ann).mutation(api.messages.send, { body: "three small words" });
    await t.as(bob).mutation(api.messages.send, { body: "not counted" });
    expect(await t.as(ann).action(api.tools.wordCount, {})).toEqual({ messages: 1, words: 3 });
  });

  it("deletes an ephemeral message when its scheduled expiry runs, not before", async () => {
    const t = createTest().as(ann);
    const { id, expiryJob } = await t.mutation(api.messages.sendEphemeral, {
      body: "gone soon",
      seconds: 60,
    });
    expect(expiryJob).toMatch(/^_svc_scheduled_/);
    expect(await t.runScheduledWithin(30_000)).toBe(0);
    expect((await t.query(api.messages.list, {})).map((message) => message._id)).toEqual([id]);
    expect(await t.finishAllScheduled()).toBe(1);
    expect(await t.query(api.messages.list, {})).toEqual([]);
    expect(await t.finishAllScheduled()).toBe(0);
  });
});
