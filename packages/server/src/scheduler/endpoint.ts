import type { Outcome } from "../errors/outcome.ts";
import type { JobFilter, JobSelection } from "./admin-view.ts";
import type { JobPage } from "./job-view.ts";
import type { JobRow } from "./table.ts";

/**
 * The scheduler's methods on a shard Durable Object (JS RPC). Only the
 * worker holds a stub: no client reaches them.
 *
 * @example
 * ```ts
 * // A test harness's `finishAllScheduled()`: run what is due, as if the clock were far ahead.
 * await endpointStub<ScheduledEndpoint>(env.SHARD, key).runScheduled(Date.now() + 3_600_000);
 * ```
 */
export interface ScheduledEndpoint {
  /** A job another shard scheduled into this one (`ctx.scheduler` with `options.shardKey`). */
  acceptScheduled(job: JobRow): Promise<void>;
  /**
   * Runs this shard's jobs due by `until` (default: now) at once, without
   * waiting for the alarm, and answers how many ran: the seam for a test
   * harness (`finishAllScheduled()`, `advance(ms)`). A job due later than
   * `until` stays pending; a failing action's retries that fall before
   * `until` run in the same call. Jobs stored while it runs (the ones its
   * jobs schedule) wait for the next call: one call is one round, so a job
   * that schedules itself again runs once per call, never forever.
   */
  runScheduled(until?: number): Promise<number>;
  /** A page of this shard's jobs for the operator (admin API, CLI, dashboard). */
  scheduledList(filter: JobFilter, cursor: string | null, limit: number): Promise<Outcome<JobPage>>;
  /** Cancels the pending jobs `selection` names; answers how many, or the refusal. */
  scheduledCancel(selection: JobSelection): Promise<Outcome<number>>;
}
