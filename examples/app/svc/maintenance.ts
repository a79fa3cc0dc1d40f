import { internalMutation, query, v } from "@svc/server";

/** How many system notices the public feed keeps; the sweep deletes older ones. */
export const NOTICES_KEPT = 100;

/**
 * The every-minute maintenance job (`svc/crons.ts`): trims the public notices
 * feed to its newest {@link NOTICES_KEPT} and records when it ran. Runs as the
 * service identity, which the `maintenance` table's policy requires.
 */
export const sweep = internalMutation.handler(async (ctx) => {
  const stale = await ctx.db.query("notices").order("desc").collect();
  for (const notice of stale.slice(NOTICES_KEPT)) await ctx.db.delete(notice._id);
  const now = Date.now();
  const last = await ctx.db
    .query("maintenance")
    .withIndex("by_job", (q) => q.eq("job", "sweep"))
    .first();
  if (last === null) await ctx.db.insert("maintenance", { job: "sweep", lastRunAt: now });
  else await ctx.db.patch(last._id, { lastRunAt: now });
  return { removedNotices: Math.max(stale.length - NOTICES_KEPT, 0) };
});

/** When the maintenance job last ran: `GET /_svc/rest/maintenance/status`. */
export const status = query
  .output(v.object({ lastSweepAt: v.union(v.string(), v.null()) }))
  .expose({ rest: true })
  .describe("Maintenance status", "When the every-minute sweep (svc/crons.ts) last ran, or null.")
  .handler(async (ctx) => {
    const last = await ctx.db
      .query("maintenance")
      .withIndex("by_job", (q) => q.eq("job", "sweep"))
      .first();
    return { lastSweepAt: last === null ? null : new Date(last.lastRunAt).toISOString() };
  });
