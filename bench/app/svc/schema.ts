import { defineSchema, defineTable, v } from "@svc/server";

export default defineSchema({
  rows: defineTable({ name: v.string(), score: v.number() }),
});
