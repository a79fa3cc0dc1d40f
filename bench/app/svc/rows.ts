import { mutation, query, v } from "@svc/server";

/** The measured read: one row by id from the shard's SQLite. */
export const get = query
  .input({ id: v.id("rows") })
  .expose({ rest: true })
  .handler((ctx, args) => ctx.db.get(args.id));

/** The measured long answer (bench/scenarios/lists.ts): the shard's first 100 rows. */
export const list = query.expose({ rest: true }).handler((ctx) => ctx.db.query("rows").take(100));

/** Seeds the row the read fetches. */
export const seed = mutation.handler((ctx) =>
  ctx.db.insert("rows", { name: "benchmark row", score: 42 }),
);

/** Changes the row, so a subscription to `rows:get` gets a new value (fan-out scenario). */
export const bump = mutation.input({ id: v.id("rows") }).handler(async (ctx, args) => {
  const row = await ctx.db.get(args.id);
  if (row === null) return null;
  await ctx.db.patch(args.id, { score: row.score + 1 });
  return row.score + 1;
});

/** Inserts `count` rows numbered from `from` (the data studio scenario's million-row table). */
export const fill = mutation
  .input({ count: v.number(), from: v.number() })
  .handler(async (ctx, args) => {
    for (let i = 0; i < args.count; i++) {
      await ctx.db.insert("rows", { name: `row ${args.from + i}`, score: (args.from + i) % 1000 });
    }
    return null;
  });
