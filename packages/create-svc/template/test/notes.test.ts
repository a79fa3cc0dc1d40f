import { createTest } from "@svc/testing";
import { describe, expect, it } from "vitest";
import { api } from "../svc/_generated/api.ts";

// Each test gets storage of its own; users are given, not signed up (docs: testing.md).
const ann = { userId: "ann" };

describe("notes", () => {
  it("adds a note for its owner and hides it from everyone else", async () => {
    const t = createTest();
    await t.as(ann).mutation(api.notes.add, { text: "hello" });
    expect(await t.as(ann).query(api.notes.list)).toMatchObject([{ text: "hello" }]);
    expect(await t.as({ userId: "bob" }).query(api.notes.list)).toEqual([]);
  });

  it("refuses anonymous writes and bad notes", async () => {
    const t = createTest();
    const anonymous = t.mutation(api.notes.add, { text: "nope" });
    await expect(anonymous).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    const empty = t.as(ann).mutation(api.notes.add, { text: " " });
    await expect(empty).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
    // @ts-expect-error `text` is a string: tsc (in `npm test`) refuses this line, the shard too.
    const wrong = t.as(ann).mutation(api.notes.add, { text: 1 });
    await expect(wrong).rejects.toMatchObject({ code: "VALIDATION_FAILED" });
  });
});
