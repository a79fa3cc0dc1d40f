import { defineSchema, defineTable, type PolicyCtx, v } from "@svc/server";

const isAuthor = (ctx: PolicyCtx, doc: { author: string }) => doc.author === ctx.auth.userId;
/** Cron jobs and queue consumers run as the service identity; no client ever does. */
const isService = (ctx: PolicyCtx) => ctx.auth.kind === "service";

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
  /** Delivery notes the notification consumer writes; each user reads only their own. */
  notifications: defineTable({
    recipient: v.string(),
    messageId: v.id("messages"),
    text: v.string(),
  }).policy({
    read: (ctx, doc) => doc.recipient === ctx.auth.userId,
    insert: isService,
    update: () => false,
    delete: isService,
  }),
  /** What the maintenance job last did; anyone may read it, only the service writes it. */
  maintenance: defineTable({ job: v.string(), lastRunAt: v.number() })
    .index("by_job", ["job"])
    .policy({ read: () => true, insert: isService, update: isService, delete: () => false }),
});
