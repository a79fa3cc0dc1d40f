import { runCronJobs } from "../cron/run.ts";
import type { BackupsOptions } from "../data-admin/options.ts";
import { startBackupRuns } from "../data-admin/scheduled-backups.ts";
import { consumeBatch } from "../queue/consume.ts";
import type { WorkerRuntime } from "../worker/runtime.ts";
import type { SvcWorker, WorkerOptions } from "./options.ts";

/**
 * The worker's handlers for what no client sends: `scheduled` (the cron
 * jobs whose schedule fired, and the scheduled backups) and `queue` (a
 * batch for its queue's consumer), both as the service identity.
 *
 * @example
 * ```ts
 * const { scheduled, queue } = backgroundHandlers(options, runtime, backupsOptionOf(options.backups));
 * ```
 */
export function backgroundHandlers<Env>(
  options: WorkerOptions<Env>,
  runtime: WorkerRuntime<Env>,
  backups: Required<BackupsOptions> | undefined,
): Pick<SvcWorker<Env>, "scheduled" | "queue"> {
  const serverDeps = (env: Env) => ({
    functions: options.functions,
    shard: (shardKey: string) => runtime.shard(env, shardKey),
    timeoutMs: runtime.procedureTimeoutMs,
  });
  return {
    async scheduled(controller, env) {
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
      await runCronJobs({ ...serverDeps(env), crons: options.crons }, controller.cron);
    },
    async queue(batch, env) {
      if (options.queues === undefined) {
        console.error(
          `svc: a batch of queue ${batch.queue} arrived but createWorker has no queues`,
        );
        batch.retryAll();
        return;
      }
      await consumeBatch({ ...serverDeps(env), queues: options.queues }, batch);
    },
  };
}
