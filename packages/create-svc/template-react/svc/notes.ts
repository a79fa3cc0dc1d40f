import { mutation, paginationOptsValidator, query, SvcError, v } from "@svc/server";

/** The caller's notes, newest first: `GET /_svc/rest/notes/list`. RLS hides everyone else's. */
export const list = query
  .expose({ rest: true })
  .describe("List my notes")
  .handler(async (ctx) => ctx.db.query("notes").order("desc").take(100));

/** The caller's notes a page at a time, newest first (`usePaginatedQuery`); every page stays live. */
export const page = query
  .input({ paginationOpts: paginationOptsValidator })
  .handler(async (ctx, args) => ctx.db.query("notes").order("desc").paginate(args.paginationOpts));

/** Adds a note for the signed-in caller: `POST /_svc/rest/notes/add {"text": "…"}`. */
export const add = mutation
  .input({ text: v.string() })
  .output(v.id("notes"))
  .expose({ rest: true })
  .describe("Add a note")
  .handler(async (ctx, args) => {
    const owner = ctx.auth.userId;
    if (owner === null) throw new SvcError("UNAUTHENTICATED", "Sign in to add notes.");
    if (args.text.trim() === "" || args.text.length > 10_000) {
      throw new SvcError("VALIDATION_FAILED", "A note needs 1 to 10,000 characters.");
    }
    return ctx.db.insert("notes", { owner, text: args.text });
  });

/** Deletes one of the caller's notes (RLS refuses anyone else's). */
export const remove = mutation
  .input({ id: v.id("notes") })
  .expose({ rest: true })
  .describe("Delete a note")
  .handler(async (ctx, args) => {
    await ctx.db.delete(args.id);
    return null;
  });
