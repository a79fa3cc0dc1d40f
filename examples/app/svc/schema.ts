import { defineSchema, defineTable, type PolicyCtx, v } from "@svc/server";

const isAuthor = (ctx: PolicyCtx, doc: { author: string }) => doc.author === ctx.auth.userId;

export default defineSchema({
  /** Chat messages. Row-level security: users read and write only their own. */
  messages: defineTable({
    author: v.string(),
    body: v.string(),
    channel: v.string(),
  })
    .index("by_channel", ["channel"])
    .policy({
      read: isAuthor,
      insert: isAuthor,
      update: (ctx, current, next) => isAuthor(ctx, current) && isAuthor(ctx, next),
      delete: isAuthor,
    }),
  /** System notices written only by internal procedures; readable by anyone. */
  notices: defineTable({ text: v.string() }),
});
