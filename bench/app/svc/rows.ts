import { mutation, query, v } from "@svc/server";

/** The measured read: one row by id from the shard's SQLite. */
export const get = query
  .input({ id: v.id("rows") })
  .expose({ rest: true })
  .handler((ctx, args) => ctx.db.get(args.id));

/** Seeds the row the read fetches. */
export const seed = mutation.handler((ctx) =>
  ctx.db.insert("rows", { name: "benchmark row", score: 42 }),
);
