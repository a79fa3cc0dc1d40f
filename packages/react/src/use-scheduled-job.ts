import { type ScheduledJobStatus, scheduledJob } from "@svc/client";
import { type QueryOptions, useQuery } from "./use-query.ts";

/**
 * Watches one scheduled job live (svc's built-in `scheduledJob` query):
 * `undefined` while it loads, then the job's state as it moves from
 * `pending` to `succeeded` (or `failed`, `canceled`), or `null` when the
 * caller is not the user who scheduled it. Pass the shard the job was
 * scheduled in; `"skip"` or `undefined` watches nothing (no job yet).
 *
 * @example
 * ```tsx
 * const job = useScheduledJob(note.expiryJob);
 * return <span>{job?.state === "pending" ? `deletes itself at ${job.dueAt}` : "deleted"}</span>;
 * ```
 */
export function useScheduledJob(
  id: string | "skip" | undefined,
  options: QueryOptions = {},
): ScheduledJobStatus | null | undefined {
  return useQuery(scheduledJob, id === undefined || id === "skip" ? "skip" : { id }, options);
}
