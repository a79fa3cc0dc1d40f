import { defineSchema, defineTable, rule, v } from "@svc/server";

const isOwner = rule.eq("owner", rule.userId);

export default defineSchema({
  notes: defineTable({ owner: v.string(), text: v.string() })
    .index("by_owner", ["owner"])
    .policy({ read: isOwner, insert: isOwner, update: isOwner, delete: isOwner }),
});
