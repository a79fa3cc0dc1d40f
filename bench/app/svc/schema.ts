import { defineSchema, defineTable, type PolicyCtx, rule, v } from "@svc/server";

const postFields = { author: v.string(), channel: v.string(), body: v.string() };
const noteFields = { channel: v.string(), body: v.string() };

export default defineSchema({
  rows: defineTable({ name: v.string(), score: v.number() }),
  /** The data-migration and index-build scenario (svc/migrations/, src/data-bench.ts). */
  docs: defineTable({
    n: v.number(),
    body: v.string(),
    label: v.string(),
    migrated: v.number(),
  }).index("by_label", ["label"]),
  /** Posts under a declarative rule, paired with an index that serves it (the RLS scenario). */
  posts: defineTable(postFields)
    .index("by_channel", ["channel"])
    .index("by_author_channel", ["author", "channel"])
    .policy({ read: rule.eq("author", rule.userId) }),
  /** The same posts under the same policy written as a function (a post-filter). */
  fnPosts: defineTable(postFields)
    .index("by_channel", ["channel"])
    .index("by_author_channel", ["author", "channel"])
    .policy({ read: (ctx: PolicyCtx, doc) => doc.author === ctx.auth.userId }),
  /** The search scenario: notes searched by the words of `body` (src/search-bench.ts). */
  notes: defineTable(noteFields).searchIndex("search_body", {
    searchField: "body",
    filterFields: ["channel"],
  }),
  /** The same notes without a search index: what an insert costs without one. */
  plainNotes: defineTable(noteFields),
});
