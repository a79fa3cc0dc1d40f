import { action, v } from "@svc/server";
import { api } from "./_generated/api.ts";

/** An action: counts words of the caller's recent messages by calling a query. */
export const wordCount = action
  .input({ channel: v.optional(v.string()) })
  .output(v.object({ messages: v.number(), words: v.number() }))
  .expose({ rest: true })
  .describe("Count my words", "Counts the words in the caller's latest messages of a channel.")
  .handler(async (ctx, args) => {
    const messages = await ctx.runQuery(api.messages.list, { channel: args.channel });
    const words = messages.reduce(
      (sum, doc) => sum + doc.body.split(/\s+/).filter(Boolean).length,
      0,
    );
    return { messages: messages.length, words };
  });
