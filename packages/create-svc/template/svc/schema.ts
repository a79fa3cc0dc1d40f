import { defineSchema, defineTable, type PolicyCtx, v } from "@svc/server";

const isOwner = (ctx: PolicyCtx, doc: { owner: string }) => doc.owner === ctx.auth.userId;

export default defineSchema({
  /** Notes. Row-level security: each user reads and writes only their own. */
  notes: defineTable({ owner: v.string(), text: v.string() })
    .index("by_owner", ["owner"])
    .policy({
      read: isOwner,
      insert: isOwner,
      update: (ctx, current, next) => isOwner(ctx, current) && isOwner(ctx, next),
      delete: isOwner,
    }),
});
