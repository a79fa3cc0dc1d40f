import { SvcError } from "../errors/svc-error.ts";

/**
 * The scheduler's bounds, on by default. A job outside them is refused when
 * it is scheduled (the scheduling call fails with the code below and nothing
 * is written), never dropped later.
 *
 * @see ../../../../docs/scheduler.md
 * @example if (delayMs > SCHEDULER_LIMITS.maxDelayMs) ...
 */
export const SCHEDULER_LIMITS = {
  /** Jobs waiting or running in one shard (`RATE_LIMITED`, reason `pendingJobs`). */
  maxPendingJobs: 100_000,
  /** Bytes of a job's arguments in svc's JSON encoding (`PAYLOAD_TOO_LARGE`, reason `argsBytes`). */
  maxArgsBytes: 64 * 1024,
  /** Furthest a job may be scheduled ahead: 366 days (`BAD_REQUEST`, reason `delayMs`). */
  maxDelayMs: 366 * 24 * 60 * 60 * 1000,
  /** Attempts of an action before it ends `failed`. */
  actionMaxAttempts: 5,
  /** Delay before an action's second attempt; doubled for each later one. */
  actionRetryBaseMs: 1_000,
  /** Longest delay between two attempts of an action. */
  actionRetryMaxMs: 5 * 60 * 1000,
  /** How long finished jobs (succeeded, failed, canceled) stay listed. */
  keepFinishedMs: 7 * 24 * 60 * 60 * 1000,
} as const;

/** Which bound a refused schedule crossed (`data.reason` of its error). */
export type SchedulerLimit = "pendingJobs" | "argsBytes" | "delayMs";

/**
 * The error of a schedule that crosses a bound: the code says the class of
 * refusal, `data.reason` which bound, `data.max` its value.
 *
 * @example throw limitError("argsBytes", "PAYLOAD_TOO_LARGE", "Scheduled arguments are 70000 bytes.")
 */
export function limitError(
  reason: SchedulerLimit,
  code: "RATE_LIMITED" | "PAYLOAD_TOO_LARGE" | "BAD_REQUEST",
  message: string,
): SvcError {
  const max = {
    pendingJobs: SCHEDULER_LIMITS.maxPendingJobs,
    argsBytes: SCHEDULER_LIMITS.maxArgsBytes,
    delayMs: SCHEDULER_LIMITS.maxDelayMs,
  }[reason];
  return new SvcError(code, message, { data: { reason, max } });
}

/**
 * When a failed action runs again: 1 s after its first attempt, doubling,
 * at most 5 minutes, with up to 20 % jitter so retries of many jobs spread.
 *
 * @example retryDelayMs(3) // ~4000
 */
export function retryDelayMs(attempts: number, random = Math.random): number {
  const base = Math.min(
    SCHEDULER_LIMITS.actionRetryMaxMs,
    SCHEDULER_LIMITS.actionRetryBaseMs * 2 ** Math.max(0, attempts - 1),
  );
  return Math.round(base * (1 + 0.2 * random()));
}
