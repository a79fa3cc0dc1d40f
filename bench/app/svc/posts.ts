import { internalMutation, mutation, query, v } from "@svc/server";

/** Inserts `count` posts by `author` into both tables, past RLS. */
export const seedInternal = internalMutation
  .input({ author: v.string(), count: v.number(), from: v.number() })
  .bypassRls()
  .handler(async (ctx, args) => {
    for (let i = 0; i < args.count; i++) {
      const post = {
        author: args.author,
        channel: "general",
        body: `post ${args.from + i} ${"x".repeat(200)}`,
      };
      await ctx.db.insert("posts", post);
      await ctx.db.insert("fnPosts", post);
    }
    return null;
  });

/** Seeds posts (the bench's setup step). */
export const seed = mutation
  .input({ author: v.string(), count: v.number(), from: v.number() })
  .handler(async (ctx, args) => ctx.runMutation(seedInternal, args));

/** The measured read: the caller's newest 20 posts of a channel, declarative RLS. */
export const mine = query
  .input({ channel: v.string() })
  .expose({ rest: true })
  .handler(async (ctx, args) =>
    ctx.db
      .query("posts")
      .withIndex("by_channel", (q) => q.eq("channel", args.channel))
      .order("desc")
      .take(20),
  );

/** The same read under the function policy. */
export const mineFn = query
  .input({ channel: v.string() })
  .expose({ rest: true })
  .handler(async (ctx, args) =>
    ctx.db
      .query("fnPosts")
      .withIndex("by_channel", (q) => q.eq("channel", args.channel))
      .order("desc")
      .take(20),
  );
