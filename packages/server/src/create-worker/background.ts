import { runCronJobs } from "../cron/run.ts";
import type { BackupsOptions } from "../data-admin/options.ts";
import { startBackupRuns } from "../data-admin/scheduled-backups.ts";
import type { CallRecorder, RecordRun } from "../observability/recorder.ts";
import { consumeBatch } from "../queue/consume.ts";
import type { WorkerRuntime } from "../worker/runtime.ts";
import type { SvcWorker, WorkerOptions } from "./options.ts";

/**
 * The worker's handlers for what no client sends: `scheduled` (the cron
 * jobs whose schedule fired, and the scheduled backups) and `queue` (a
 * batch for its queue's consumer), both as the service identity, each job
 * and message a recorded call when `recorder` is given.
 *
 * @example
 * ```ts
 * const { scheduled, queue } = backgroundHandlers(options, runtime, backupsOptionOf(options.backups), recorder);
 * ```
 */
export function backgroundHandlers<Env>(
  options: WorkerOptions<Env>,
  runtime: WorkerRuntime<Env>,
  backups: Required<BackupsOptions> | undefined,
  recorder?: CallRecorder,
): Pick<SvcWorker<Env>, "scheduled" | "queue"> {
  const recordRun = (env: Env, ctx: ExecutionContext): RecordRun | undefined =>
    recorder === undefined ? undefined : (facts, work) => recorder.service(facts, env, ctx, work);
  const serverDeps = (env: Env, ctx: ExecutionContext) => {
    const record = recordRun(env, ctx);
    return {
      functions: options.functions,
      shard: (shardKey: string) => runtime.shard(env, shardKey),
      timeoutMs: runtime.procedureTimeoutMs,
      ...(record ? { record } : {}),
    };
  };
  return {
    async scheduled(controller, env, ctx) {
      const fired = controller.cron.trim().split(/\s+/).join(" ");
      const backupsDue = backups !== undefined && fired === backups.schedule;
      if (backupsDue) {
        await startBackupRuns(runtime.namespace(env), backups, controller.scheduledTime);
      }
      if (backupsDue && !options.crons?.jobs.some((job) => job.schedule === fired)) return;
      if (options.crons === undefined) {
        console.error(
          `svc: a cron trigger fired ("${controller.cron}") but createWorker has no crons`,
        );
        return;
      }
      await runCronJobs({ ...serverDeps(env, ctx), crons: options.crons }, controller.cron);
    },
    async queue(batch, env, ctx) {
      if (options.queues === undefined) {
        console.error(
          `svc: a batch of queue ${batch.queue} arrived but createWorker has no queues`,
        );
        batch.retryAll();
        return;
      }
      await consumeBatch({ ...serverDeps(env, ctx), queues: options.queues }, batch);
    },
  };
}
