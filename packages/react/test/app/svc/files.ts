import { mutation, query, v } from "@svc/server";

/** An upload URL for one file of up to 1 MiB (`useUploadFile`'s tests). */
export const uploadUrl = mutation.handler((ctx) =>
  ctx.storage.generateUploadUrl({ maxBytes: 1024 * 1024 }),
);

/** What is stored of a file the caller uploaded, or `null`. */
export const metadata = query
  .input({ file: v.id("_storage") })
  .handler((ctx, args) => ctx.storage.getMetadata(args.file));
