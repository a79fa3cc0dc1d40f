import type { RunnableReference } from "./references.ts";

/**
 * The id of one scheduled job (`ctx.scheduler.runAfter` answers it); pass it
 * to `ctx.scheduler.cancel`, store it in a document to cancel later, or find
 * the job with it in the admin API.
 *
 * @example const id: ScheduledJobId = await ctx.scheduler.runAfter(60_000, internal.mail.remind, { userId });
 */
export type ScheduledJobId = string & { readonly __scheduledJob: true };

/** Where a scheduled job runs. */
export interface ScheduleOptions {
  /**
   * Another shard to run the job in. The job is kept in this shard (in the
   * scheduling transaction) until it is due, then handed to that shard,
   * which runs it at once. Like `ctx.run*` from server code, the shard key
   * is the app's choice: `shardAccess` is not asked.
   * @default the scheduling call's shard
   */
  shardKey?: string;
}

/** The arguments and options after `ref`: arguments may be left out when every field is optional. */
export type ScheduleArgs<Args> =
  Record<string, never> extends Args
    ? [args?: Args, options?: ScheduleOptions]
    : [args: Args, options?: ScheduleOptions];

/** What may be scheduled: a mutation or an action, public or internal. */
export type SchedulableReference<Args, Output> =
  | RunnableReference<"mutation", Args, Output>
  | RunnableReference<"action", Args, Output>;

/**
 * `ctx.scheduler` of mutations and actions: run a mutation or action once,
 * later, durably. Inside a mutation the job is written in its transaction
 * (a mutation that throws schedules nothing); the arguments are validated
 * against the target's `.input()` now, and the job runs as the caller that
 * scheduled it. See docs/scheduler.md.
 *
 * @example
 * ```ts
 * const id = await ctx.scheduler.runAfter(60 * 60_000, internal.invites.expire, { inviteId });
 * await ctx.db.patch(inviteId, { expiryJob: id });
 * ```
 */
export interface Scheduler {
  /** Runs `ref` with `args` after `delayMs` milliseconds (0 runs it as soon as this call is done). */
  runAfter<Args, Output>(
    delayMs: number,
    ref: SchedulableReference<Args, Output>,
    ...rest: ScheduleArgs<Args>
  ): Promise<ScheduledJobId>;
  /** Runs `ref` with `args` at `timestamp` (epoch ms or a `Date`; a past time runs it as soon as possible). */
  runAt<Args, Output>(
    timestamp: number | Date,
    ref: SchedulableReference<Args, Output>,
    ...rest: ScheduleArgs<Args>
  ): Promise<ScheduledJobId>;
  /**
   * Cancels a job of this shard that has not started: answers `true` when
   * it did, `false` when the job already started, finished or was handed
   * to another shard (an id this shard never made is `false` too).
   */
  cancel(id: ScheduledJobId): Promise<boolean>;
}
