// Plain types and constants only: the dashboard's bundle imports this through the route contract.

/** Where a job is in its life. `running` is only ever stored for actions. */
export type JobState = "pending" | "running" | "succeeded" | "failed" | "canceled";

/** Every {@link JobState}, for validating filters. */
export const JOB_STATES: readonly JobState[] = [
  "pending",
  "running",
  "succeeded",
  "failed",
  "canceled",
];

/** One job as the admin API, the CLI and the dashboard show it. Times are ISO-8601 strings. */
export interface ScheduledJobView {
  id: string;
  function: string;
  kind: "mutation" | "action";
  state: JobState;
  /** When it is due; for an action waiting to retry, its next attempt. */
  dueAt: string;
  attempts: number;
  /** The validated arguments in svc's JSON encoding (`{"$int64": "…"}` for bigints). */
  args: unknown;
  /** Who it runs as: `user:<id>`, `apiKey:<id>`, `service:<name>` or `anonymous`. */
  runsAs: string;
  /** The last failure (`CODE: message`), or `null`. */
  error: string | null;
  /** Set while the job waits here to be handed to another shard. */
  targetShard: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/** A page of jobs, due time first, and the cursor of the next page (`null` at the end). */
export interface JobPage {
  jobs: ScheduledJobView[];
  nextCursor: string | null;
}

/** A job listed across shards: the job and the shard it waits in. */
export interface ShardJobView extends ScheduledJobView {
  /** The shard's key (open its own list for its every job). */
  shard: string;
}

/** A shard that could not answer a cross-shard list or cancel: its error, reported, not skipped. */
export interface ShardFailure {
  shard: string;
  code: string;
  message: string;
}

/**
 * One page of jobs across the registry's shards: the jobs of one page of
 * shards (in key order), by due time, each shard contributing its first
 * `limit`. `nextCursor` is the next page of shards (`null` after the last).
 */
export interface AcrossShardsJobPage {
  jobs: ShardJobView[];
  /** Shards of this page holding more matching jobs than it shows. */
  more: string[];
  errors: ShardFailure[];
  nextCursor: string | null;
}

/** What one page of a cancel across shards did: per shard, how many it canceled. */
export interface AcrossShardsCancel {
  canceled: number;
  shards: { shard: string; canceled: number }[];
  errors: ShardFailure[];
  nextCursor: string | null;
}
