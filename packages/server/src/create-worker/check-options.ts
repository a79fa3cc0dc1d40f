import { isCronJobs } from "../cron/jobs.ts";
import { CRON_KINDS } from "../cron/run.ts";
import { isHttpRouter } from "../http-actions/router.ts";
import { isProcedure } from "../procedures/procedure.ts";
import { isProcedurePath } from "../procedures/references.ts";
import { CONSUMER_KINDS } from "../queue/consume.ts";
import { isQueueConsumers } from "../queue/consumers.ts";
import { targetPath } from "../worker/server-calls.ts";
import type { WorkerOptions } from "./options.ts";

const REMOVED_OPTIONS: Record<string, string> = {
  authIntrospector:
    "the authIntrospector option was removed; pass createAuthAdmin(auth) as authAdmin instead",
};

/**
 * Refuses configuration mistakes when `createWorker` is called, before
 * anything is served: missing or malformed options, removed ones, procedure
 * paths, and cron and queue targets checked against the registry (so a
 * wrong one fails at start, not at 3 a.m.).
 *
 * @example checkOptions({ shardDO: "SHARD", functions }); // throws for a bad path or target
 */
export function checkOptions(options: WorkerOptions<never>): void {
  for (const [name, message] of Object.entries(REMOVED_OPTIONS)) {
    if (name in options) throw new Error(`svc: ${message}`);
  }
  if (options.shardDO === undefined || options.shardDO === null) {
    throw new Error(
      "svc: createWorker needs shardDO (the shard Durable Object binding or its name)",
    );
  }
  if (typeof options.functions !== "object" || options.functions === null) {
    throw new Error(
      "svc: createWorker needs functions (the registry from svc/_generated/functions.ts)",
    );
  }
  for (const [path, procedure] of Object.entries(options.functions)) {
    if (!isProcedurePath(path))
      throw new Error(
        `svc: ${JSON.stringify(path)} is not a valid procedure path (namespace:function)`,
      );
    if (!isProcedure(procedure))
      throw new Error(`svc: functions[${JSON.stringify(path)}] is not a procedure`);
  }
  if (options.http !== undefined && !isHttpRouter(options.http))
    throw new Error("svc: http must be the router from svc/http.ts (httpRouter())");
  if (options.crons !== undefined && !isCronJobs(options.crons))
    throw new Error("svc: crons must be the job list from svc/crons.ts (cronJobs())");
  if (options.queues !== undefined && !isQueueConsumers(options.queues))
    throw new Error("svc: queues must be the consumer list from svc/queues.ts (queueConsumers())");
  // Targets are checked against the registry now, so a wrong one fails at start, not at 3 a.m.
  for (const job of options.crons?.jobs ?? []) {
    targetPath(options.functions, job.target, CRON_KINDS, `cron job ${job.name}`);
  }
  for (const { definition, options: consumer } of options.queues?.consumers ?? []) {
    targetPath(options.functions, consumer.run, CONSUMER_KINDS, `consumer of ${definition.queue}`);
  }
  for (const name of ["restRateLimit", "rpcRateLimit"] as const) {
    if (options[name] !== undefined && typeof options[name]?.check !== "function")
      throw new Error(`svc: ${name} must be a gate from createRestRateLimit(limiter, { name })`);
  }
  if (options.apiKeyRateLimit !== undefined && typeof options.apiKeyRateLimit?.check !== "function")
    throw new Error(
      "svc: apiKeyRateLimit must be a gate from createApiKeyRateLimit(limiter, { name })",
    );
  if (
    options.socketRateLimit !== undefined &&
    typeof options.socketRateLimit?.admitAddress !== "function"
  )
    throw new Error("svc: socketRateLimit must be the gate from createSocketRateLimit(limiter, …)");
  if (options.authAdmin !== undefined && typeof options.authAdmin?.handle !== "function") {
    throw new Error("svc: authAdmin must be the result of createAuthAdmin(auth) from @svc/auth");
  }
  for (const name of [
    "maxBodyBytes",
    "maxHeaderBytes",
    "procedureTimeoutMs",
    "subscriptionReauthSeconds",
  ] as const) {
    const value = options[name];
    if (value !== undefined && (!Number.isInteger(value) || value <= 0)) {
      throw new Error(`svc: ${name} must be a positive integer`);
    }
  }
}
