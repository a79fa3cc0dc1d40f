import { createClient } from "@svc/client";
import { describe, expectTypeOf, it } from "vitest";
import {
  type DatabaseWriter,
  type DataModelOf,
  defineSchema,
  defineTable,
  type Id,
  mutation,
  query,
  v,
} from "../src/index.ts";
import { makeReference } from "../src/procedures/references.ts";

/**
 * Type tests of the user-facing API (issue 19 item 3): schema → `ctx.db`,
 * builder → client, policies. They run in `tsc` (npm test's typecheck); the
 * functions below are checked, never called.
 */

const schema = defineSchema({
  messages: defineTable({ author: v.string(), channel: v.string(), n: v.number() })
    .index("by_channel", ["channel"])
    .index("by_channel_n", ["channel", "n"])
    .searchIndex("search_author", { searchField: "author", filterFields: ["channel", "n"] })
    .policy({
      read: (ctx, doc) => {
        expectTypeOf(doc.author).toEqualTypeOf<string>();
        // @ts-expect-error a policy sees the table's fields only.
        doc.nope;
        return doc.author === ctx.auth.userId;
      },
    }),
  notes: defineTable({ text: v.string() }),
});
type DM = DataModelOf<typeof schema>;

describe("schema → ctx.db", () => {
  it("types index ranges by their fields in index order", () => {
    const check = (db: DatabaseWriter<DM>) => {
      db.query("messages").withIndex("by_channel", (q) => q.eq("channel", "general"));
      db.query("messages").withIndex("by_channel_n", (q) =>
        q.eq("channel", "general").gte("n", 1).lt("n", 5),
      );
      db.query("messages").withIndex("by_channel", (q) =>
        q.eq("channel", "general").gt("_creationTime", 0),
      );
      // @ts-expect-error channel is a string.
      db.query("messages").withIndex("by_channel", (q) => q.eq("channel", 123));
      // @ts-expect-error fields in index order: channel first.
      db.query("messages").withIndex("by_channel_n", (q) => q.eq("n", 1));
      // @ts-expect-error no such index.
      db.query("messages").withIndex("by_author");
      // @ts-expect-error no such table.
      db.query("nope");
    };
    expectTypeOf(check).toBeFunction();
  });

  it("types searches by the index's search and filter fields", () => {
    const check = async (db: DatabaseWriter<DM>) => {
      const found = await db
        .query("messages")
        .withSearchIndex("search_author", (q) =>
          q.search("author", "ann").eq("channel", "ops").eq("n", 2),
        )
        .take(5);
      expectTypeOf(found[0]?.channel).toEqualTypeOf<string | undefined>();
      // @ts-expect-error channel is the search index's filter field, not its search field.
      db.query("messages").withSearchIndex("search_author", (q) => q.search("channel", "x"));
      db.query("messages").withSearchIndex("search_author", (q) =>
        // @ts-expect-error n is a number.
        q.search("author", "x").eq("n", "2"),
      );
      db.query("messages").withSearchIndex("search_author", (q) =>
        // @ts-expect-error author is not a filter field of the index.
        q.search("author", "x").eq("author", "x"),
      );
      // @ts-expect-error the callback must search.
      db.query("messages").withSearchIndex("search_author", (q) => q);
      // @ts-expect-error no such search index.
      db.query("messages").withSearchIndex("by_channel", (q) => q.search("author", "x"));
      db.query("messages")
        .withSearchIndex("search_author", (q) => q.search("author", "x"))
        // @ts-expect-error a search answers in relevance order: no order().
        .order("desc");
    };
    expectTypeOf(check).toBeFunction();
  });

  it("takes typed ids and typed documents", () => {
    const check = async (db: DatabaseWriter<DM>, id: Id<"messages">, noteId: Id<"notes">) => {
      expectTypeOf(await db.get(id)).toEqualTypeOf<
        | ({ author: string; channel: string; n: number } & {
            _id: Id<"messages">;
            _creationTime: number;
          })
        | null
      >();
      expectTypeOf(db.insert("notes", { text: "t" })).resolves.toEqualTypeOf<Id<"notes">>();
      await db.delete(id);
      await db.delete(noteId);
      // @ts-expect-error not an id: ids come from insert, get or v.id().
      await db.delete("not-an-id");
      // @ts-expect-error a document needs every required field.
      await db.insert("messages", { author: "a" });
      // @ts-expect-error n is a number.
      await db.patch(id, { n: "1" });
    };
    expectTypeOf(check).toBeFunction();
  });
});

describe("builder → client", () => {
  it("carries arguments and output from the procedure to the typed client", () => {
    const add = mutation
      .input({ a: v.number(), b: v.number() })
      .output(v.number())
      .handler((_ctx, args) => args.a + args.b);
    const greet = query
      .input({ name: v.optional(v.string()) })
      .handler((_ctx, args) => `hi ${args.name}`);
    const api = {
      add: makeReference<typeof add>("math:add", "mutation", "public"),
      greet: makeReference<typeof greet>("hello:greet", "query", "public"),
    };
    const check = async () => {
      const client = createClient({ url: "http://127.0.0.1:8787" });
      expectTypeOf(client.mutation(api.add, { a: 1, b: 2 })).resolves.toEqualTypeOf<number>();
      expectTypeOf(client.query(api.greet, {})).resolves.toEqualTypeOf<string>();
      // @ts-expect-error b must be a number.
      await client.mutation(api.add, { a: 1, b: "2" });
      // @ts-expect-error a query reference is not a mutation.
      await client.mutation(api.greet, {});
    };
    expectTypeOf(check).toBeFunction();
  });
});
