import {
  internalMutation,
  mutation,
  paginationOptsValidator,
  query,
  type ScheduledJobId,
  SvcError,
  v,
} from "@svc/server";

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
  .handler(async (ctx, args) => ctx.db.insert("notes", newNote(ctx.auth.userId, args.text)));

/** The caller's new note, or the error that refuses it. */
function newNote(owner: string | null, text: string): { owner: string; text: string } {
  if (owner === null) throw new SvcError("UNAUTHENTICATED", "Sign in to add notes.");
  if (text.trim() === "" || text.length > 10_000) {
    throw new SvcError("VALIDATION_FAILED", "A note needs 1 to 10,000 characters.");
  }
  return { owner, text };
}

/**
 * Adds a note that deletes itself after `seconds`: the job is scheduled in
 * this mutation's transaction and runs once, as the caller. The note keeps
 * the job's id, so the UI can watch it (`useScheduledJob`) and `keep` can cancel it.
 */
export const addExpiring = mutation
  .input({ text: v.string(), seconds: v.number({ min: 1, max: 86_400, integer: true }) })
  .output(v.id("notes"))
  .handler(async (ctx, args) => {
    const id = await ctx.db.insert("notes", newNote(ctx.auth.userId, args.text));
    const deleteJob = await ctx.scheduler.runAfter(args.seconds * 1000, expire, { id });
    await ctx.db.patch(id, { deleteJob });
    return id;
  });

/** Deletes a note whose time is up (already deleted: nothing to do). */
export const expire = internalMutation.input({ id: v.id("notes") }).handler(async (ctx, args) => {
  if ((await ctx.db.get(args.id)) !== null) await ctx.db.delete(args.id);
  return null;
});

/** Keeps a note that was to delete itself; answers whether its job was still waiting. */
export const keep = mutation.input({ id: v.id("notes") }).handler(async (ctx, args) => {
  const note = await ctx.db.get(args.id);
  if (note?.deleteJob === undefined) return false;
  return ctx.scheduler.cancel(note.deleteJob as ScheduledJobId);
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
