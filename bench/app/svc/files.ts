import { mutation, query, v } from "@svc/server";

/** An upload URL for one file of up to `maxBytes` (the storage scenario). */
export const uploadUrl = mutation
  .input({ maxBytes: v.number() })
  .handler((ctx, args) => ctx.storage.generateUploadUrl({ maxBytes: args.maxBytes }));

/** A download URL for a file the caller uploaded. */
export const url = query
  .input({ file: v.id("_storage") })
  .handler((ctx, args) => ctx.storage.getUrl(args.file));

/** `count` download URLs for one file: `getUrl`'s cost per call is the slope over `count`. */
export const urls = query
  .input({ file: v.id("_storage"), count: v.number() })
  .handler(async (ctx, args) => {
    let last: string | null = null;
    for (let i = 0; i < args.count; i++) last = await ctx.storage.getUrl(args.file);
    return last;
  });
