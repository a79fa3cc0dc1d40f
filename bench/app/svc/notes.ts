import { mutation, query, v } from "@svc/server";

/** The measured search: the 10 most relevant notes for `text`. */
export const search = query
  .input({ text: v.string() })
  .expose({ rest: true })
  .handler(async (ctx, args) =>
    ctx.db
      .query("notes")
      .withSearchIndex("search_body", (q) => q.search("body", args.text))
      .take(10),
  );

/** The measured write: one note into the searched table, or into the one without an index. */
export const add = mutation
  .input({ body: v.string(), indexed: v.boolean() })
  .expose({ rest: true })
  .handler(async (ctx, args) =>
    ctx.db.insert(args.indexed ? "notes" : "plainNotes", { channel: "general", body: args.body }),
  );
