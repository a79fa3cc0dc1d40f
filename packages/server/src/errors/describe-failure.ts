import { SvcError } from "./svc-error.ts";

/**
 * One log line's worth of a failure: `CODE: message` for an `SvcError` (a
 * shard's crash arrives as `INTERNAL`; its stack is in the shard's own log),
 * else the error itself so the runtime prints its stack.
 *
 * @example console.error("svc: cron job sweep failed:", describeFailure(error));
 */
export function describeFailure(error: unknown): unknown {
  return error instanceof SvcError ? `${error.code}: ${error.message}` : error;
}
