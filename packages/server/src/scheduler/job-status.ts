// Plain types and constants only: `@svc/client` imports this (types) for watching a job.
import type { ScheduledJobView } from "./job-view.ts";

/**
 * The path of svc's built-in live query of one scheduled job (`{ id }`):
 * clients subscribe to it like to any public query. Paths under `_svc/`
 * are reserved for svc.
 *
 * @example ws.send(JSON.stringify({ type: "subscribe", id: "s1", path: SCHEDULED_JOB_QUERY, args: { id } }));
 */
export const SCHEDULED_JOB_QUERY = "_svc/scheduler:job";

/**
 * One job as the caller who scheduled it sees it live: what it runs, where
 * it is in its life, and how its last attempt failed. No arguments and no
 * internal error text: the operator's view (`ScheduledJobView`) has those.
 * Times are ISO-8601 strings.
 */
export interface ScheduledJobStatus
  extends Pick<
    ScheduledJobView,
    "id" | "function" | "state" | "dueAt" | "attempts" | "finishedAt"
  > {
  /**
   * The last failure, as a client would have been told it (an unexpected
   * error's message is not shown), or `null`.
   */
  error: { code: string; message: string } | null;
}
