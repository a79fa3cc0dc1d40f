import { createTest } from "@svc/testing";
import { describe, expect, it } from "vitest";
import { api } from "../svc/_generated/api.ts";

const ann = { userId: "ann" };

describe("notes that delete themselves", () => {
  it("deletes a note when its time is up, unless it was kept", async () => {
    const t = createTest();
    await t.as(ann).mutation(api.notes.addExpiring, { text: "gone", seconds: 10 });
    const kept = await t.as(ann).mutation(api.notes.addExpiring, { text: "kept", seconds: 10 });
    expect(await t.as(ann).mutation(api.notes.keep, { id: kept })).toBe(true);
    // Nothing is due yet; then, as if ten seconds had passed, the first note's job runs.
    expect(await t.runScheduledWithin(1_000)).toBe(0);
    expect(await t.runScheduledWithin(11_000)).toBe(1);
    expect(await t.as(ann).query(api.notes.list)).toMatchObject([{ text: "kept" }]);
    expect(await t.as(ann).mutation(api.notes.keep, { id: kept })).toBe(false);
  });
});
