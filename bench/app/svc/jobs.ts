import { internalMutation, mutation, query, v } from "@svc/server";
import { internal } from "./_generated/api.ts";

/**
 * The scheduled job of the scheduler scenario (bench/scenarios/scheduler.ts):
 * a row naming when it was due (`name`) and when it started (`score`), so
 * lateness and drain rate are read from the shard afterwards.
 */
export const stamp = internalMutation.input({ due: v.number() }).handler(async (ctx, args) => {
  await ctx.db.insert("rows", { name: String(args.due), score: Date.now() });
  return null;
});

/** Schedules one {@link stamp} per due time (`runAt`), in this one mutation. */
export const scheduleAt = mutation
  .input({ dues: v.array(v.number()) })
  .handler(async (ctx, args) => {
    for (const due of args.dues) await ctx.scheduler.runAt(due, internal.jobs.stamp, { due });
    return null;
  });

/** Every stamp of the shard: when each job was due and when it started (epoch ms). */
export const stamps = query.input({}).handler(async (ctx) =>
  (await ctx.db.query("rows").collect()).map((row) => ({
    due: Number(row.name),
    ran: row.score,
  })),
);

/** The measured write: one row, and with `withJob` one job an hour later (what `runAfter` adds). */
export const write = mutation
  .input({ withJob: v.boolean() })
  .expose({ rest: true })
  .handler(async (ctx, args) => {
    const id = await ctx.db.insert("rows", { name: "write", score: 1 });
    if (args.withJob) await ctx.scheduler.runAfter(3_600_000, internal.jobs.stamp, { due: 0 });
    return id;
  });
