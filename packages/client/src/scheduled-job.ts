import type { FunctionReference, ScheduledJobStatus } from "@svc/server";

/**
 * The reference of svc's built-in live query of one scheduled job: watch it
 * with `watchQuery`, `subscribe` or `@svc/react`'s `useQuery` like any
 * public query. Its value is the job's {@link ScheduledJobStatus} while the
 * caller is the user who scheduled it, else `null` (another caller, an
 * anonymous one, an unknown id: the same answer). Ask the shard the job was
 * scheduled in. The path is the server's `SCHEDULED_JOB_QUERY`.
 *
 * @example
 * ```ts
 * const job = client.watchQuery(scheduledJob, { id: jobId });
 * job.subscribe(() => console.log(job.getSnapshot().value?.state)); // "pending", then "succeeded"
 * ```
 */
export const scheduledJob: FunctionReference<
  "query",
  "public",
  { id: string },
  ScheduledJobStatus | null
> = Object.freeze({ path: "_svc/scheduler:job", kind: "query", visibility: "public" });
