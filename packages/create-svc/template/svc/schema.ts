import { defineSchema, defineTable, type PolicyCtx, v } from "@svc/server";

const isOwner = (ctx: PolicyCtx, doc: { owner: string }) => doc.owner === ctx.auth.userId;

export default defineSchema({
  /**
   * Notes. Row-level security: each user reads and writes only their own, and so only the
   * files attached to their own notes (a file is as readable as the note that holds it).
   */
  notes: defineTable({
    owner: v.string(),
    text: v.string(),
    /** A file stored with ctx.storage (the React template's attachments, docs/storage.md). */
    attachment: v.optional(v.id("_storage")),
    /** The scheduled job that deletes a note that deletes itself (the React template's, docs/scheduler.md). */
    deleteJob: v.optional(v.string()),
  })
    .index("by_owner", ["owner"])
    .policy({
      read: isOwner,
      insert: isOwner,
      update: (ctx, current, next) => isOwner(ctx, current) && isOwner(ctx, next),
      delete: isOwner,
    }),
});
