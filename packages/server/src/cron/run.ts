import { describeFailure } from "../errors/describe-failure.ts";
import type { ProcedureKind } from "../model/call-meta.ts";
import type { RecordRun } from "../observability/recorder.ts";
import type { FunctionRegistry } from "../procedures/procedure.ts";
import type { ShardEndpoint } from "../shard/call.ts";
import { runAsService, targetPath } from "../worker/server-calls.ts";
import type { CronJob, CronJobs } from "./jobs.ts";

/** What a cron job may run. */
export const CRON_KINDS: readonly ProcedureKind[] = ["query", "mutation", "action"];

/** What running cron jobs needs from `createWorker`. */
export interface CronDeps {
  crons: CronJobs;
  functions: FunctionRegistry;
  shard(shardKey: string): ShardEndpoint;
  timeoutMs: number;
  /** Where failures and unmatched schedules are reported. @default console.error */
  log?: (message: string, error?: unknown) => void;
  /** Records each job's run as a call (`createWorker`'s recorder); absent when recording is off. */
  record?: RecordRun;
}

/** What one run of one job ended with. */
export interface CronRunResult {
  job: string;
  ok: boolean;
}

/**
 * Runs every job declared for `cron` (the schedule that fired), each as the
 * service `cron:<name>`, concurrently. A failing job is logged with its name
 * and never fails the others or the worker; a schedule with no job is logged
 * too (a trigger in `wrangler.jsonc` that `svc/crons.ts` no longer uses).
 *
 * @example
 * ```ts
 * async scheduled(controller, env) { await runCronJobs(deps, controller.cron); }
 * ```
 */
export async function runCronJobs(deps: CronDeps, cron: string): Promise<CronRunResult[]> {
  const log =
    deps.log ?? ((message: string, error?: unknown) => console.error(message, error ?? ""));
  const fired = cron.trim().split(/\s+/).join(" ");
  const jobs = deps.crons.jobs.filter((job) => job.schedule === fired);
  if (jobs.length === 0) {
    log(
      `svc: no cron job in svc/crons.ts has the schedule "${cron}"; remove the trigger or add a job`,
    );
    return [];
  }
  return Promise.all(
    jobs.map(async (job): Promise<CronRunResult> => {
      try {
        await runCronJob(deps, job);
        return { job: job.name, ok: true };
      } catch (error) {
        log(`svc: cron job ${job.name} ("${job.schedule}") failed:`, describeFailure(error));
        return { job: job.name, ok: false };
      }
    }),
  );
}

/**
 * Runs one declared job now, as the service `cron:<name>` in its shard
 * (recorded as a cron call when `deps.record` is given), and answers what
 * it returned; a failure is thrown. The scheduled handler runs each fired
 * job through it, and the admin API's "run now" too.
 *
 * @example
 * ```ts
 * const job = crons.jobs.find((j) => j.name === "sweep");
 * if (job) await runCronJob(deps, job);
 * ```
 */
export async function runCronJob(deps: Omit<CronDeps, "crons" | "log">, job: CronJob) {
  const service = `cron:${job.name}`;
  const run = () =>
    runAsService(deps, {
      service,
      transport: "cron",
      target: job.target,
      kinds: CRON_KINDS,
      subject: `cron job ${job.name}`,
      args: job.args,
      shardKey: job.shardKey,
    });
  if (deps.record === undefined) return run();
  const facts = {
    entry: "cron" as const,
    route: targetPath(deps.functions, job.target, CRON_KINDS),
    shardKey: job.shardKey,
    caller: { kind: "service" as const, id: service },
    cron: { job: job.name, schedule: job.schedule },
  };
  return deps.record(facts, run);
}
