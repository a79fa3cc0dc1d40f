import type { SystemQuery } from "../dispatch/dispatch.ts";
import type { Identity } from "../model/identity.ts";
import { isoTime } from "../observability/iso-time.ts";
import { query } from "../procedures/builder.ts";
import type { AnyProcedure } from "../procedures/procedure.ts";
import { v } from "../values/index.ts";
import { SCHEDULED_JOB_QUERY, type ScheduledJobStatus } from "./job-status.ts";
import { ensureScheduledTable, type JobRow, jobById, SCHEDULED_TABLE } from "./table.ts";

/** What a client sees of a stored failure (`CODE: message`): an unexpected error's text stays the operator's. */
function clientError(stored: string | null): ScheduledJobStatus["error"] {
  if (stored === null) return null;
  const cut = stored.indexOf(": ");
  const code = cut < 0 ? "INTERNAL" : stored.slice(0, cut);
  if (code === "INTERNAL") return { code, message: "The job failed with an unexpected error." };
  return { code, message: stored.slice(cut + 2) };
}

/** The job as its scheduler sees it, or `null` when it is not theirs (or not there: the same answer). */
export function jobStatus(
  row: JobRow | undefined,
  caller: Identity | null,
): ScheduledJobStatus | null {
  // Only a user's own jobs: anonymous callers are indistinguishable, and a service's jobs are the app's.
  if (row === undefined || row.service !== null || row.user_id === null) return null;
  if (caller === null || caller.userId !== row.user_id) return null;
  return {
    id: row.id,
    function: row.path,
    state: row.state,
    dueAt: isoTime(row.run_at),
    attempts: row.attempts,
    finishedAt: row.finished_at === null ? null : isoTime(row.finished_at),
    error: clientError(row.error),
  };
}

/**
 * The built-in live query `_svc/scheduler:job` (`{ id }`): one job of this
 * shard, visible only to the user who scheduled it (everyone else, and an
 * unknown id, gets `null`). It re-runs whenever `_svc_scheduled` changes.
 *
 * @example
 * ```ts
 * new Dispatcher({ ...deps, systemQueries: [scheduledJobQuery(ctx.storage.sql)] });
 * ```
 */
export function scheduledJobQuery(sql: SqlStorage): SystemQuery {
  const procedure = query.input({ id: v.string() }).handler(async (ctx, args) => {
    ensureScheduledTable(sql);
    return jobStatus(jobById(sql, args.id), await ctx.auth.getIdentity());
  });
  return {
    path: SCHEDULED_JOB_QUERY,
    procedure: procedure as AnyProcedure,
    table: SCHEDULED_TABLE,
  };
}
