import { describeFailure } from "../errors/describe-failure.ts";
import type { FunctionRegistry } from "../procedures/procedure.ts";
import type { ProcedureKind } from "../procedures/references.ts";
import type { ShardEndpoint } from "../shard/call.ts";
import { type ServerCalls, serverCalls, targetPath } from "../worker/server-calls.ts";
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
}

/** What one run of one job ended with. */
export interface CronRunResult {
  job: string;
  ok: boolean;
}

/** Runs one job through the runner of its target's kind (`kind` from the registry). */
export function runTarget(
  calls: ServerCalls,
  kind: ProcedureKind,
  job: Pick<CronJob, "target" | "args" | "shardKey">,
) {
  const options = { shardKey: job.shardKey };
  const target = job.target as never;
  switch (kind) {
    case "query":
      return calls.runQuery(target, job.args as never, options);
    case "mutation":
      return calls.runMutation(target, job.args as never, options);
    default:
      return calls.runAction(target, job.args as never, options);
  }
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
      const calls = serverCalls(
        { functions: deps.functions, shard: deps.shard, timeoutMs: deps.timeoutMs },
        {
          identity: null,
          service: `cron:${job.name}`,
          transport: "cron",
          requestId: crypto.randomUUID(),
        },
      );
      try {
        const path = targetPath(deps.functions, job.target, CRON_KINDS, `cron job ${job.name}`);
        await runTarget(calls, deps.functions[path]!.kind, job);
        return { job: job.name, ok: true };
      } catch (error) {
        log(`svc: cron job ${job.name} ("${job.schedule}") failed:`, describeFailure(error));
        return { job: job.name, ok: false };
      }
    }),
  );
}
