import { mutation, query, SvcError, v } from "@svc/server";

/** Largest attachment: 5 MiB (the upload is refused, nothing stored, past it). */
const MAX_BYTES = 5 * 1024 * 1024;

/** What may be attached: images, PDFs and plain text (never HTML or SVG, docs/storage.md). */
const TYPES = [
  "image/png",
  "image/jpeg",
  "image/webp",
  "image/gif",
  "application/pdf",
  "text/plain",
];

/**
 * A single-use URL the browser POSTs one file to (`useUploadFile` in ui/Notes.tsx): short-lived,
 * size- and type-limited. Only signed-in users get one.
 */
export const uploadUrl = mutation.handler(async (ctx) => {
  if (ctx.auth.userId === null) throw new SvcError("UNAUTHENTICATED", "Sign in to attach files.");
  return ctx.storage.generateUploadUrl({ maxBytes: MAX_BYTES, contentTypes: TYPES });
});

/**
 * Attaches an uploaded file to one of the caller's notes, replacing (and deleting) the one it
 * had. The file must be one the caller may read: their own upload, not someone else's.
 */
export const attach = mutation
  .input({ note: v.id("notes"), file: v.id("_storage") })
  .handler(async (ctx, args) => {
    const note = await ctx.db.get(args.note);
    if (note === null) throw new SvcError("NOT_FOUND", "No such note.");
    if ((await ctx.storage.getMetadata(args.file)) === null)
      throw new SvcError("NOT_FOUND", "No such file.");
    await ctx.db.patch(args.note, { attachment: args.file });
    if (note.attachment !== undefined && note.attachment !== args.file)
      await ctx.storage.delete(note.attachment);
    return null;
  });

/** Signed download URLs of the caller's attachments, by note id (RLS: their own notes only). */
export const urls = query.handler(async (ctx) => {
  const notes = await ctx.db.query("notes").order("desc").take(100);
  const urls: Record<string, string> = {};
  for (const note of notes) {
    if (note.attachment === undefined) continue;
    const url = await ctx.storage.getUrl(note.attachment);
    if (url !== null) urls[note._id] = url;
  }
  return urls;
});
