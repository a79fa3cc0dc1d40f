import { SvcError } from "@svc/server";
import { SHARD_IN_ISOLATE } from "@svc/server/internal";
import { describe, expect, it } from "vitest";
import { createTest } from "../src/index.ts";
import { api, internal } from "./fixture/api.ts";

const ann = { userId: "ann" };
const bob = { userId: "bob" };

describe("createTest: calls on the real shard", () => {
  it("runs typed calls as the given users, with RLS between them", async () => {
    const t = createTest();
    const id = await t.as(ann).mutation(api.notes.add, { text: "hello" });
    expect(id).toMatch(/^notes_/);
    expect(await t.as(ann).query(api.notes.list)).toMatchObject([{ _id: id, text: "hello" }]);
    expect(await t.as(bob).query(api.notes.list)).toEqual([]);
    expect(await t.query(api.notes.list)).toEqual([]);
  });

  it("refuses what production refuses, with the same SvcError codes", async () => {
    const t = createTest();
    const anonymous = t.mutation(api.notes.add, { text: "nope" });
    await expect(anonymous).rejects.toBeInstanceOf(SvcError);
    await expect(anonymous).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    // The schema's maxLength (100) is checked by the shard's database, as in production.
    await expect(
      t.as(ann).mutation(api.notes.add, { text: "x".repeat(101) }),
    ).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
    const wrongArgs = { text: 42 } as unknown as { text: string };
    await expect(t.as(ann).mutation(api.notes.add, wrongArgs)).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
      issues: [expect.objectContaining({ path: "args.text" })],
    });
    // An internal procedure is not a client's to call: the harness sends it the server's way only.
    const asPublic = { ...internal.notes.sweep, visibility: "public" as const };
    await expect(t.mutation(asPublic)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("sends arguments and results over svc's JSON codec, as the wire does", async () => {
    const t = createTest();
    const seen = await t.as(ann).query(api.notes.whoami, {
      extra: { dropped: undefined, big: 2n ** 60n, at: new Date(0) },
    });
    // A Date is no svc value: like any class instance it arrives as its own fields (none).
    expect(seen.args).toEqual({ extra: { big: 2n ** 60n, at: {} } });
    expect(seen.transport).toBe("rpc");
  });

  it("answers results as production does: a class instance as its fields, a cycle as INTERNAL", async () => {
    const t = createTest();
    expect(await t.query(api.notes.shaped, { cyclic: false })).toEqual({ at: { x: 1, y: 2 } });
    const cyclic = t.query(api.notes.shaped, { cyclic: true });
    await expect(cyclic).rejects.toBeInstanceOf(SvcError);
    await expect(cyclic).rejects.toMatchObject({ code: "INTERNAL" });
  });

  it("gives identities as sessionIdentity shapes them, and API keys as apiKeyIdentity does", async () => {
    const t = createTest();
    const user = await t
      .as({ userId: "ann", organizationId: "acme", role: "admin" })
      .query(api.notes.whoami);
    expect(user).toMatchObject({ kind: "user", userId: "ann" });
    expect(user.identity).toMatchObject({
      userId: "ann",
      user: { id: "ann", role: "admin" },
      session: { userId: "ann", activeOrganizationId: "acme" },
    });
    const orgKey = await t.asApiKey({ ownerOrganizationId: "acme" }).query(api.notes.whoami);
    expect(orgKey).toMatchObject({ kind: "apiKey", userId: null });
    expect(() => t.asApiKey({})).toThrow(/exactly one owner/);
  });

  it("checks an API key's scopes as the worker does", async () => {
    const t = createTest();
    const reader = t.asApiKey({ ownerUserId: "ann", scopes: ["notes.readonly"] });
    expect(await reader.query(api.notes.list)).toEqual([]);
    await expect(reader.mutation(api.notes.add, { text: "x" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    const writer = t.asApiKey({ ownerUserId: "ann", scopes: ["notes"] });
    await writer.mutation(api.notes.add, { text: "by key" });
    expect(await t.as(ann).query(api.notes.list)).toMatchObject([{ text: "by key" }]);
  });

  it("runs actions, and internal procedures as the app's service", async () => {
    const t = createTest();
    await t.as(ann).action(api.notes.addLater, { text: "later" });
    expect(await t.as(ann).query(api.notes.list)).toMatchObject([{ text: "later" }]);
    // The table's policy lets only the service insert.
    await expect(t.as(ann).mutation(internal.notes.sweep)).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await t.asService("cron:sweep").mutation(internal.notes.sweep);
    const sweeps = await t.run(({ db }) => db.query("sweeps").collect());
    expect(sweeps).toMatchObject([{ by: "cron:sweep" }]);
    // A name without its kind would run as a service production never has.
    for (const service of ["sweeper", "cron:", "http:hook"]) {
      const unknown = () => t.asService(service as "cron:sweeper");
      expect(unknown).toThrow(SvcError);
      expect(unknown).toThrow(/cron:<job> or queue:<queue>/);
    }
  });
});

describe("t.run, t.shard and storage per test", () => {
  it("seeds and reads with a privileged ctx.db, RLS off and schema on", async () => {
    const t = createTest();
    await t.run(({ db }) => db.insert("notes", { owner: "bob", text: "seeded" }));
    expect(await t.as(bob).query(api.notes.list)).toMatchObject([{ text: "seeded" }]);
    await t.as(ann).mutation(api.notes.add, { text: "mine" });
    const all = await t.run(({ db }) => db.query("notes").collect());
    expect(all.map((note) => note.owner).sort()).toEqual(["ann", "bob"]);
    await expect(
      t.run(({ db }) => db.insert("notes", { owner: "bob", text: "x".repeat(101) })),
    ).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
  });

  it("leaves t.run's door out of reach of stubs: JS RPC carries no symbol-named member", async () => {
    const t = createTest();
    await t.run(async () => null);
    const overRpc = (t.stub as unknown as Record<symbol, unknown>)[SHARD_IN_ISOLATE];
    expect(overRpc).toBeUndefined();
  });

  it("keeps each shard key's rows in its own shard", async () => {
    const t = createTest();
    await t.as(ann).mutation(api.notes.add, { text: "default" });
    const room = t.shard("room-2").as(ann);
    expect(room.shardKey).toBe("room-2");
    expect(await room.query(api.notes.list)).toEqual([]);
    expect(await room.query(api.notes.whoami)).toMatchObject({ shardKey: "room-2" });
    expect(() => t.shard("")).toThrow(SvcError);
  });

  it("gives every createTest storage of its own, whatever ran before with the same keys", async () => {
    const first = createTest();
    await first.as(ann).mutation(api.notes.add, { text: "first" });
    const second = createTest();
    expect(await second.as(ann).query(api.notes.list)).toEqual([]);
    expect(await first.as(ann).query(api.notes.list)).toHaveLength(1);
  });
});

describe("scheduled jobs", () => {
  it("runs a job that reschedules itself once per round, and refuses to finish it", async () => {
    const t = createTest();
    await t.mutation(api.jobs.startTicking);
    expect(await t.runScheduledWithin(30_000)).toBe(0);
    // Each round runs the jobs due when it began, each once: the tick, not the tick it schedules.
    const endless = t.finishAllScheduled();
    await expect(endless).rejects.toBeInstanceOf(SvcError);
    await expect(endless).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining("still due after 100 rounds"),
    });
    expect(await t.run(({ db }) => db.query("ticks").collect())).toHaveLength(100);
    // One round per call: the tick runs once, however long the window.
    expect(await t.runScheduledWithin(3_600_000)).toBe(1);
    expect(await t.runScheduledWithin(3_600_000)).toBe(1);
    expect(await t.run(({ db }) => db.query("ticks").collect())).toHaveLength(102);
  });

  it("refuses a window that is not a finite number of 0 or more milliseconds", async () => {
    const t = createTest();
    for (const ms of [Number.NaN, -1, Number.POSITIVE_INFINITY]) {
      const run = t.runScheduledWithin(ms);
      await expect(run).rejects.toBeInstanceOf(SvcError);
      await expect(run).rejects.toMatchObject({ code: "BAD_REQUEST" });
    }
    expect(await t.runScheduledWithin(0)).toBe(0);
  });

  it("runs jobs under the app's shard key, and keeps a job scheduled into it in the test's storage", async () => {
    for (const t of [createTest(), createTest().shard("room-2")]) {
      await t.mutation(api.jobs.startHops, { shardKey: t.shardKey });
      expect(await t.finishAllScheduled()).toBe(2);
      const ticks = await t.run(({ db }) => db.query("ticks").collect());
      expect(ticks.map((tick) => tick.shardKey)).toEqual([t.shardKey, t.shardKey]);
    }
  });
});
