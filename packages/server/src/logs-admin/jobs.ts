import type { CronJobs } from "../cron/jobs.ts";
import type { ServiceRow } from "../observability/store/endpoint.ts";
import type { QueueConsumers } from "../queue/consumers.ts";
import type { CronJobView, QueueView } from "./answers.ts";

function byService(rows: readonly ServiceRow[], prefix: string): Map<string, ServiceRow> {
  const found = new Map<string, ServiceRow>();
  for (const row of rows) {
    if (row.service.startsWith(prefix)) found.set(row.service.slice(prefix.length), row);
  }
  return found;
}

/**
 * Every declared cron job (runs or not) and every job that ran since, with
 * its runs, failures and last run and failure.
 */
export function cronView(
  rows: readonly ServiceRow[],
  crons: CronJobs | undefined,
  pathOf: (target: unknown) => string,
): CronJobView[] {
  const seen = byService(rows, "cron:");
  const declared = (crons?.jobs ?? []).map((job) => {
    const row = seen.get(job.name);
    seen.delete(job.name);
    return {
      job: job.name,
      schedule: job.schedule,
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
    function: row.route,
    runs: row.runs,
    failures: row.failures,
    lastRun: row.last,
    lastFailure: row.lastFailure,
  }));
  return [...declared, ...removed];
}

/** Every consumed queue (messages or not) and every queue that had messages since. */
export function queueView(
  rows: readonly ServiceRow[],
  queues: QueueConsumers | undefined,
  pathOf: (target: unknown) => string,
): QueueView[] {
  const seen = byService(rows, "queue:");
  const declared = (queues?.consumers ?? []).map(({ definition, options }) => {
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
    };
  });
  const removed = [...seen].map(([queue, row]) => ({
    queue,
    function: row.route,
    runs: row.runs,
    failures: row.failures,
    deadLettered: row.deadLettered,
    lastRun: row.last,
    lastFailure: row.lastFailure,
  }));
  return [...declared, ...removed];
}
