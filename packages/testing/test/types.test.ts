import type { Id } from "@svc/server";
import { describe, expectTypeOf, it } from "vitest";
import { createTest } from "../src/index.ts";
import { api, internal } from "./fixture/api.ts";

/**
 * Type tests: calls are typed from the generated references. They run in
 * `tsc` (npm test's typecheck); the functions below are checked, never called.
 */
describe("typed calls", () => {
  it("takes each procedure's arguments and answers its output type", () => {
    const check = async () => {
      const t = createTest().as({ userId: "ann" });
      expectTypeOf(await t.mutation(api.notes.add, { text: "hi" })).toEqualTypeOf<Id<"notes">>();
      const notes = await t.query(api.notes.list);
      expectTypeOf(notes[0]!.text).toEqualTypeOf<string>();
      // @ts-expect-error a wrong argument type does not compile.
      await t.mutation(api.notes.add, { text: 1 });
      // @ts-expect-error a missing argument does not compile.
      await t.mutation(api.notes.add);
      // @ts-expect-error an unknown argument does not compile.
      await t.mutation(api.notes.add, { text: "hi", extra: true });
      // @ts-expect-error a query is not a mutation.
      await t.mutation(api.notes.list);
      await t.asService("cron:sweep").mutation(internal.notes.sweep);
      // @ts-expect-error services are named cron:<job> or queue:<queue>.
      t.asService("sweeper");
      const rows = await t.run(async ({ db }) => db.query("notes").collect());
      expectTypeOf(rows[0]!.owner).toEqualTypeOf<string>();
      // @ts-expect-error t.run's ctx.db knows the schema's fields.
      await t.run(({ db }) => db.insert("notes", { owner: "ann" }));
    };
    expectTypeOf(check).toBeFunction();
  });
});
