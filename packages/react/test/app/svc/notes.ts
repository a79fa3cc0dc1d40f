import {
  action,
  internalMutation,
  mutation,
  paginationOptsValidator,
  query,
  SvcError,
  v,
} from "@svc/server";

/** The caller's notes, newest first. */
export const list = query.handler(async (ctx) => ctx.db.query("notes").order("desc").take(100));

/** How many notes the caller has. */
export const count = query.handler(async (ctx) => (await ctx.db.query("notes").collect()).length);

/** The caller's notes a page at a time, newest first; every page stays live. */
export const page = query
  .input({ paginationOpts: paginationOptsValidator })
  .handler(async (ctx, args) => ctx.db.query("notes").order("desc").paginate(args.paginationOpts));

/** Adds a note; `delayMs` holds the answer (to watch an optimistic update); "refuse" is refused. */
export const add = mutation
  .input({ text: v.string(), delayMs: v.optional(v.number()) })
  .handler(async (ctx, args) => {
    const owner = ctx.auth.userId;
    if (owner === null) throw new SvcError("UNAUTHENTICATED", "Sign in to add notes.");
    if (args.delayMs) await new Promise((resolve) => setTimeout(resolve, args.delayMs));
    if (args.text === "refuse") throw new SvcError("FORBIDDEN", "This note is not allowed.");
    return ctx.db.insert("notes", { owner, text: args.text });
  });

/** Removes one of the caller's notes. */
export const remove = mutation.input({ id: v.id("notes") }).handler(async (ctx, args) => {
  await ctx.db.delete(args.id);
  return null;
});

/** Always refused: how a failing live query reaches a component. */
export const secret = query.handler(async () => {
  throw new SvcError("FORBIDDEN", "Not for you.");
});

/** An action: the text in capitals. */
export const shout = action
  .input({ text: v.string() })
  .handler(async (_ctx, args) => args.text.toUpperCase());

/** Deletes a note: what an expiring note's job runs. */
export const expire = internalMutation.input({ id: v.id("notes") }).handler(async (ctx, args) => {
  await ctx.db.delete(args.id);
  return null;
});

/** Adds a note that deletes itself after `delayMs`; answers the note and the job that deletes it. */
export const addExpiring = mutation
  .input({ text: v.string(), delayMs: v.number() })
  .handler(async (ctx, args) => {
    const owner = ctx.auth.userId;
    if (owner === null) throw new SvcError("UNAUTHENTICATED", "Sign in to add notes.");
    const id = await ctx.db.insert("notes", { owner, text: args.text });
    const job = await ctx.scheduler.runAfter(args.delayMs, expire, { id });
    return { id, job };
  });
