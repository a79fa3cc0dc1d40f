import { createTest } from "@svc/testing";
import { describe, expect, it } from "vitest";
import { api, internal } from "../../svc/_generated/api.ts";
import { NOTICES_KEPT } from "../../svc/maintenance.ts";

/** What the cron job and the queue consumer run, called as the service they run as. */
describe("the app's service procedures", () => {
  it("sweeps notices down to the newest ones and records the run", async () => {
    const t = createTest();
    await t.run(async ({ db }) => {
      for (let n = 0; n < NOTICES_KEPT + 5; n++) {
        await db.insert("notices", { event: "message_posted", text: "A new message was posted." });
      }
    });
    expect(await t.query(api.maintenance.status)).toEqual({ lastSweepAt: null });
    const swept = await t.asService("cron:sweep").mutation(internal.maintenance.sweep);
    expect(swept).toEqual({ removedNotices: 5 });
    expect(await t.run(({ db }) => db.query("notices").collect())).toHaveLength(NOTICES_KEPT);
    expect((await t.query(api.maintenance.status)).lastSweepAt).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it("lets only the service write the sweep record and notifications", async () => {
    const t = createTest();
    await expect(
      t.as({ userId: "ann" }).mutation(internal.maintenance.sweep),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    const messageId = await t.as({ userId: "ann" }).mutation(api.messages.send, { body: "hi" });
    const note = { recipient: "ann", messageId, channel: "general", shardKey: "default" };
    await expect(
      t.as({ userId: "ann" }).mutation(internal.notifications.record, note),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await t
      .asService("queue:svc-example-notifications")
      .mutation(internal.notifications.record, note);
    expect(await t.as({ userId: "ann" }).query(api.messages.notifications)).toMatchObject([
      { messageId, text: "Your message in #general was delivered." },
    ]);
    expect(await t.as({ userId: "bob" }).query(api.messages.notifications)).toEqual([]);
  });

  it("answers whoami with the identity the session resolver would give", async () => {
    const t = createTest();
    await expect(t.query(api.account.whoami)).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    expect(await t.as({ userId: "ann", role: "admin" }).query(api.account.whoami)).toMatchObject({
      userId: "ann",
      user: { id: "ann", role: "admin" },
    });
  });
});
