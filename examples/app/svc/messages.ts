import { internalMutation, mutation, query, SvcError, stream, v } from "@svc/server";
import { internal } from "./_generated/api.ts";
import { notificationQueue } from "./notifications.ts";

const message = v.object({
  _id: v.id("messages"),
  _creationTime: v.number(),
  author: v.string(),
  body: v.string(),
  channel: v.string(),
});

/**
 * The caller's messages in a channel, newest first. RLS hides everyone else's.
 * `limit`'s bounds are in its validator, so the OpenAPI document says exactly
 * what this accepts.
 */
export const list = query
  .input({
    channel: v.optional(v.string()),
    limit: v.optional(v.number({ integer: true, min: 1, max: 200 })),
  })
  .output(v.array(message))
  .expose({ rest: true })
  .describe("List my messages", "The signed-in user's messages in a channel, newest first.")
  .handler(async (ctx, args) =>
    ctx.db
      .query("messages")
      .withIndex("by_channel", (q) => q.eq("channel", args.channel ?? "general"))
      .order("desc")
      .take(args.limit ?? 50),
  );

/** Every message of the caller in a channel, a page at a time (oldest first). */
export const page = query
  .input({
    channel: v.optional(v.string()),
    cursor: v.union(v.string(), v.null()),
    numItems: v.number({ integer: true, min: 1, max: 500 }),
  })
  .handler(async (ctx, args) =>
    ctx.db
      .query("messages")
      .withIndex("by_channel", (q) => q.eq("channel", args.channel ?? "general"))
      .paginate({ cursor: args.cursor, numItems: args.numItems }),
  );

/**
 * The caller's messages whose words match `text` (the last word as a prefix),
 * most relevant first, optionally in one channel. RLS hides everyone else's.
 */
export const search = query
  .input({
    // Words to find: not only white space (an empty search is refused), as the schema says.
    text: v.string({ minLength: 1, maxLength: 200, pattern: /\S/ }),
    channel: v.optional(v.string()),
    limit: v.optional(v.number({ integer: true, min: 1, max: 100 })),
  })
  .output(v.array(message))
  .expose({ rest: true })
  .describe(
    "Search my messages",
    "The signed-in user's messages matching the words, most relevant first.",
  )
  .handler(async (ctx, args) =>
    ctx.db
      .query("messages")
      .withSearchIndex("search_body", (q) =>
        args.channel === undefined
          ? q.search("body", args.text)
          : q.search("body", args.text).eq("channel", args.channel),
      )
      .take(args.limit ?? 20),
  );

/** Posts a message as the signed-in user. */
export const send = mutation
  .input({
    // Some text that is not only white space (what `trim()` removes, `\s` matches).
    body: v.string({ minLength: 1, maxLength: 2000, pattern: /\S/ }),
    channel: v.optional(v.string({ minLength: 1, maxLength: 64 })),
  })
  .output(v.id("messages"))
  .expose({ rest: true })
  .describe("Send a message")
  .handler(async (ctx, args) => {
    const author = ctx.auth.userId;
    if (author === null) throw new SvcError("UNAUTHENTICATED", "Sign in to send messages.");
    const channel = args.channel ?? "general";
    const id = await ctx.db.insert("messages", { author, body: args.body, channel });
    await ctx.runMutation(internal.messages.notice, { event: "message_posted" });
    // Last, because a send cannot be rolled back: nothing after it can fail the mutation.
    await notificationQueue.send({
      recipient: author,
      messageId: id,
      channel,
      shardKey: ctx.meta.shardKey,
    });
    return id;
  });

/**
 * Posts a message that deletes itself after `seconds`: the delete is a job
 * scheduled in this mutation's transaction (docs/scheduler.md), so a send
 * that fails leaves no job behind, and the job runs once, as the author.
 */
export const sendEphemeral = mutation
  .input({
    body: v.string({ maxLength: 2000 }),
    channel: v.optional(v.string({ minLength: 1, maxLength: 64 })),
    seconds: v.number({ min: 1, max: 86_400, integer: true }),
  })
  .output(v.object({ id: v.id("messages"), expiryJob: v.string() }))
  .describe("Send a message that deletes itself")
  .handler(async (ctx, args) => {
    const author = ctx.auth.userId;
    if (author === null) throw new SvcError("UNAUTHENTICATED", "Sign in to send messages.");
    const channel = args.channel ?? "general";
    const id = await ctx.db.insert("messages", { author, body: args.body, channel });
    const expiryJob = await ctx.scheduler.runAfter(args.seconds * 1000, internal.messages.expire, {
      id,
    });
    return { id, expiryJob };
  });

/** Deletes an ephemeral message when its time is up (already deleted: nothing to do). */
export const expire = internalMutation
  .input({ id: v.id("messages") })
  .handler(async (ctx, args) => {
    if ((await ctx.db.get(args.id)) !== null) await ctx.db.delete(args.id);
    return null;
  });

/**
 * The caller's delivery notifications, newest first (written by the queue
 * consumer in `svc/queues.ts`); RLS shows each user only their own.
 */
export const notifications = query
  .output(v.array(v.object({ messageId: v.id("messages"), text: v.string(), at: v.number() })))
  .expose({ rest: true })
  .describe("My notifications", "Delivery notes for the messages the caller sent, newest first.")
  .handler(async (ctx) => {
    const mine = await ctx.db.query("notifications").order("desc").take(50);
    return mine.map((note) => ({
      messageId: note.messageId,
      text: note.text,
      at: note._creationTime,
    }));
  });

/** Deletes one of the caller's messages. */
export const remove = mutation.input({ id: v.id("messages") }).handler(async (ctx, args) => {
  await ctx.db.delete(args.id);
  return null;
});

/**
 * What a system notice may say. Fixed texts only: a public feed must never carry
 * a caller's words (anyone could post "maintenance: send your password to …")
 * nor who did what (user ids and channels are nobody else's business).
 */
const NOTICE_TEXT = { message_posted: "A new message was posted." } as const;

/** Records a system notice; internal, so only other procedures can call it. */
export const notice = internalMutation
  .input({ event: v.literal("message_posted") })
  .handler(async (ctx, args) => {
    await ctx.db.insert("notices", { event: args.event, text: NOTICE_TEXT[args.event] });
    return null;
  });

/** Latest system notices: fixed texts, no user ids, safe for anonymous readers. */
export const notices = query.handler(async (ctx) => ctx.db.query("notices").order("desc").take(20));

/** Streams the caller's messages in a channel, oldest first, one item per message. */
export const replay = stream
  .input({ channel: v.optional(v.string()) })
  .handler(async function* (ctx, args) {
    const all = await ctx.db
      .query("messages")
      .withIndex("by_channel", (q) => q.eq("channel", args.channel ?? "general"))
      .collect();
    for (const doc of all) yield { body: doc.body, at: doc._creationTime };
  });
