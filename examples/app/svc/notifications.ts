import { defineQueue, internalMutation, v } from "@svc/server";

/** One notification: who sent which message where (`shardKey`: the shard it lives in). */
const notification = {
  recipient: v.string(),
  messageId: v.id("messages"),
  channel: v.string(),
  shardKey: v.string(),
};

/** Delivery notes for sent messages: `messages:send` produces, `svc/queues.ts` consumes. */
export const notificationQueue = defineQueue({
  queue: "svc-example-notifications",
  binding: "NOTIFICATIONS",
  message: v.object(notification),
});

/** Consumes one notification: records it for its recipient (as the service identity). */
export const record = internalMutation.input(notification).handler(async (ctx, args) => {
  await ctx.db.insert("notifications", {
    recipient: args.recipient,
    messageId: args.messageId,
    text: `Your message in #${args.channel} was delivered.`,
  });
  return null;
});
