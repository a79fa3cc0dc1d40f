import type { CronJobs } from "../cron/jobs.ts";
import { describeCronSchedule, nextCronRun } from "../cron/schedule.ts";
import type { ServiceRow } from "../observability/store/endpoint.ts";
import type { QueueConsumers } from "../queue/consumers.ts";
import type { CronJobView, QueueBacklog, QueueView } from "./answers.ts";

function byService(rows: readonly ServiceRow[], prefix: string): Map<string, ServiceRow> {
  const found = new Map<string, ServiceRow>();
  for (const row of rows) {
    if (row.service.startsWith(prefix)) found.set(row.service.slice(prefix.length), row);
  }
  return found;
}

/**
 * Every declared cron job (runs or not) and every job that ran since, with
 * its runs, failures, last run and failure, its schedule in words and when
 * it next fires after `now`.
 */
export function cronView(
  rows: readonly ServiceRow[],
  crons: CronJobs | undefined,
  pathOf: (target: unknown) => string,
  now: Date,
): CronJobView[] {
  const seen = byService(rows, "cron:");
  const declared = (crons?.jobs ?? []).map((job) => {
    const row = seen.get(job.name);
    seen.delete(job.name);
    return {
      job: job.name,
      schedule: job.schedule,
      summary: describeCronSchedule(job.schedule),
      nextRun: nextCronRun(job.schedule, now)?.toISOString() ?? null,
      function: row?.route ?? pathOf(job.target),
      runs: row?.runs ?? 0,
      failures: row?.failures ?? 0,
      lastRun: row?.last ?? null,
      lastFailure: row?.lastFailure ?? null,
    };
  });
  const removed = [...seen].map(([job, row]) => ({
    job,
    schedule: null,
    summary: null,
    nextRun: null,
    function: row.route,
    runs: row.runs,
    failures: row.failures,
    lastRun: row.last,
    lastFailure: row.lastFailure,
  }));
  return [...declared, ...removed];
}

/**
 * Every consumed queue (messages or not) and every queue that had messages
 * since, with the backlog `backlogOf` finds for it.
 */
export async function queueView(
  rows: readonly ServiceRow[],
  queues: QueueConsumers | undefined,
  pathOf: (target: unknown) => string,
  backlogOf: (binding: string | undefined) => Promise<QueueBacklog | null>,
): Promise<QueueView[]> {
  const seen = byService(rows, "queue:");
  const declared = (queues?.consumers ?? []).map(async ({ definition, options }) => {
    const row = seen.get(definition.queue);
    seen.delete(definition.queue);
    return {
      queue: definition.queue,
      function: row?.route ?? pathOf(options.run),
      runs: row?.runs ?? 0,
      failures: row?.failures ?? 0,
      deadLettered: row?.deadLettered ?? 0,
      lastRun: row?.last ?? null,
      lastFailure: row?.lastFailure ?? null,
      backlog: await backlogOf(definition.binding),
    };
  });
  const listed = await Promise.all(declared);
  const removed = [...seen].map(([queue, row]) => ({
    queue,
    function: row.route,
    runs: row.runs,
    failures: row.failures,
    deadLettered: row.deadLettered,
    lastRun: row.last,
    lastFailure: row.lastFailure,
    backlog: null,
  }));
  return [...listed, ...removed];
}

/**
 * The backlog of the queue behind producer binding `binding` in `env`
 * (`Queue.metrics()`), or null when there is no such binding or the runtime
 * does not report it (a failure to report is not the list's failure).
 *
 * @example await queueBacklog(env, "NOTIFICATIONS") // { messages: 3, bytes: 120, oldestAt: "…" }
 */
export async function queueBacklog(
  env: unknown,
  binding: string | undefined,
): Promise<QueueBacklog | null> {
  if (binding === undefined) return null;
  const queue = (env as Record<string, unknown> | undefined)?.[binding] as
    | Partial<Queue>
    | undefined;
  if (typeof queue?.metrics !== "function") return null;
  try {
    const metrics = await queue.metrics();
    const oldest = metrics.oldestMessageTimestamp;
    return {
      messages: metrics.backlogCount,
      bytes: metrics.backlogBytes,
      oldestAt:
        metrics.backlogCount > 0 && oldest !== undefined && oldest.getTime() > 0
          ? new Date(oldest).toISOString()
          : null,
    };
  } catch {
    return null;
  }
}
