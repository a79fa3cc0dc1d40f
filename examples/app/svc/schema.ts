import { defineSchema, defineTable, rule, v } from "@svc/server";

/**
 * Declarative rules: svc compiles them into every query's SQL, so a read
 * touches only the caller's rows (and the `by_author_channel` index serves
 * `messages:list` by channel for one author).
 */
const isAuthor = rule.eq("author", rule.userId);
/** Cron jobs and queue consumers run as the service identity; no client ever does. */
const isService = rule.callerIs("service");

export default defineSchema({
  /** Chat messages. Row-level security: users read and write only their own. */
  messages: defineTable({
    author: v.string(),
    body: v.string(),
    channel: v.string(),
  })
    .index("by_channel", ["channel"])
    .index("by_author_channel", ["author", "channel"])
    // Words of `body`, narrowed by channel: `messages:search` (docs/search.md).
    .searchIndex("search_body", { searchField: "body", filterFields: ["channel"] })
    // `update` must hold for the current and the new document: nobody gives a message away.
    .policy({ read: isAuthor, insert: isAuthor, update: isAuthor, delete: isAuthor }),
  /**
   * System notices written only by internal procedures; readable by anyone.
   * `event` came later: svc/migrations/2026-11-28-notice-event.ts gives it to
   * notices stored before.
   */
  notices: defineTable({ event: v.literal("message_posted"), text: v.string() }),
  /** Delivery notes the notification consumer writes; each user reads only their own. */
  notifications: defineTable({
    recipient: v.string(),
    messageId: v.id("messages"),
    text: v.string(),
  })
    .index("by_recipient", ["recipient"])
    .policy({
      read: rule.eq("recipient", rule.userId),
      insert: isService,
      update: rule.never,
      delete: isService,
    }),
  /** What the maintenance job last did; anyone may read it, only the service writes it. */
  maintenance: defineTable({ job: v.string(), lastRunAt: v.number() })
    .index("by_job", ["job"])
    .policy({ read: rule.always, insert: isService, update: isService, delete: rule.never }),
});
