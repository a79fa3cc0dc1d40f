import {
  type ScheduledJobView,
  type ShardFailure,
  schedulesAdminRoutes,
} from "@svc/server/routes/contract";
import type { AdminClient } from "../admin-client.ts";
import { type Output, printPages, stdout } from "./print-pages.ts";

/** The filters `svc schedules list` and `cancel` share. */
export interface ScheduleFilters {
  function?: string | undefined;
  user?: string | undefined;
}

function row(job: ScheduledJobView): string {
  const error = job.error === null ? "" : `  ${job.error}`;
  return `${job.id.padEnd(42)} ${job.state.padEnd(9)} ${job.dueAt.padEnd(24)} ${String(job.attempts).padStart(3)}  ${job.function.padEnd(28)} ${job.runsAs}${error}`;
}

/**
 * `svc schedules list <key> [--state s] [--function f] [--user u] [--limit n] [--json]`:
 * a shard's scheduled jobs by due time, page by page as they arrive (a table,
 * or one JSON object per line with `--json`). Answers how many were printed.
 *
 * @example await schedulesList(client, "room-1", { state: "failed", json: false });
 */
export async function schedulesList(
  client: AdminClient,
  key: string,
  options: ScheduleFilters & {
    state?: string | undefined;
    limit?: number | undefined;
    json: boolean;
  },
  out: Output = stdout,
): Promise<number> {
  return printPages<ScheduledJobView>(
    {
      header: `${"ID".padEnd(42)} ${"STATE".padEnd(9)} ${"DUE".padEnd(24)} TRY  ${"FUNCTION".padEnd(28)} RUNS AS`,
      noun: "job",
      json: options.json,
      limit: options.limit,
      fetch: async (cursor, limit) => {
        const page = await client.answer(schedulesAdminRoutes, "listSchedules", {
          params: { key },
          query: {
            state: options.state,
            function: options.function,
            user: options.user,
            cursor,
            limit,
          },
        });
        return { items: page.jobs, cursor: page.nextCursor };
      },
      row,
    },
    out,
  );
}

/**
 * `svc schedules cancel <key> [<id>…] [--function f] [--user u] [--all]`:
 * cancels a shard's pending jobs (those ids, or all a filter selects; `--all`
 * for every one). Answers how many were canceled.
 *
 * @example await schedulesCancel(client, "room-1", { ids: [], user: "u1" });
 */
export async function schedulesCancel(
  client: AdminClient,
  key: string,
  options: ScheduleFilters & { ids: string[]; all?: boolean | undefined },
  out: Output = stdout,
): Promise<number> {
  const body = {
    ...(options.ids.length > 0 ? { ids: options.ids } : {}),
    ...(options.function === undefined ? {} : { function: options.function }),
    ...(options.user === undefined ? {} : { user: options.user }),
    ...(options.all === true ? { all: true } : {}),
  };
  const { canceled } = await client.answer(schedulesAdminRoutes, "cancelSchedules", {
    params: { key },
    json: body,
  });
  out(`${canceled} job${canceled === 1 ? "" : "s"} canceled in shard ${key}`);
  return canceled;
}

/** A shard that could not answer, as printed: the admin API's error code and message. */
function failureLine(failure: ShardFailure): string {
  return `shard ${failure.shard} failed: ${failure.code}: ${failure.message}`;
}

/**
 * `svc schedules list --all-shards [--search text] [--state s] [--function f] [--user u] [--limit n] [--json]`:
 * the jobs of every shard the registry knows, a page of shards at a time
 * (each shard's first `limit` jobs, 20 by default), with a SHARD column. A
 * shard holding more than shown is named (list it on its own); a shard that
 * failed is printed with its error and counted. Answers the jobs printed and
 * the shards that failed.
 *
 * @example await schedulesListAcross(client, { state: "failed", json: false });
 */
export async function schedulesListAcross(
  client: AdminClient,
  options: ScheduleFilters & {
    search?: string | undefined;
    state?: string | undefined;
    limit?: number | undefined;
    json: boolean;
  },
  out: Output = stdout,
): Promise<{ printed: number; failed: number }> {
  if (!options.json)
    out(
      `${"SHARD".padEnd(20)} ${"ID".padEnd(42)} ${"STATE".padEnd(9)} ${"DUE".padEnd(24)} TRY  ${"FUNCTION".padEnd(28)} RUNS AS`,
    );
  let cursor: string | undefined;
  let printed = 0;
  let failed = 0;
  do {
    const page = await client.answer(schedulesAdminRoutes, "listAllSchedules", {
      query: {
        state: options.state,
        function: options.function,
        user: options.user,
        search: options.search,
        limit: options.limit,
        cursor,
      },
    });
    for (const job of page.jobs)
      out(options.json ? JSON.stringify(job) : `${job.shard.padEnd(20)} ${row(job)}`);
    printed += page.jobs.length;
    for (const shard of page.more)
      if (!options.json) out(`shard ${shard} holds more: svc schedules list ${shard}`);
    for (const failure of page.errors)
      out(options.json ? JSON.stringify({ failed: failure }) : failureLine(failure));
    failed += page.errors.length;
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  if (!options.json) {
    const failures = failed === 0 ? "" : `, ${failed} shard${failed === 1 ? "" : "s"} failed`;
    out(`${printed} job${printed === 1 ? "" : "s"}${failures}`);
  }
  return { printed, failed };
}

/**
 * `svc schedules cancel --all-shards (--function f | --user u | --all) [--search text]`:
 * cancels the pending jobs a filter selects in every shard the registry
 * knows, a page of shards at a time; prints each shard's count and each
 * failure. Answers how many were canceled and how many shards failed.
 *
 * @example await schedulesCancelAcross(client, { user: "u1" });
 */
export async function schedulesCancelAcross(
  client: AdminClient,
  options: ScheduleFilters & { search?: string | undefined; all?: boolean | undefined },
  out: Output = stdout,
): Promise<{ canceled: number; failed: number }> {
  const body = {
    ...(options.function === undefined ? {} : { function: options.function }),
    ...(options.user === undefined ? {} : { user: options.user }),
    ...(options.all === true ? { all: true } : {}),
    ...(options.search === undefined ? {} : { search: options.search }),
  };
  let cursor: string | undefined;
  let canceled = 0;
  let failed = 0;
  do {
    const page = await client.answer(schedulesAdminRoutes, "cancelAllSchedules", {
      json: cursor === undefined ? body : { ...body, cursor },
    });
    for (const shard of page.shards) out(`${shard.canceled} canceled in shard ${shard.shard}`);
    for (const failure of page.errors) out(failureLine(failure));
    canceled += page.canceled;
    failed += page.errors.length;
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  const failures = failed === 0 ? "" : ` (${failed} shard${failed === 1 ? "" : "s"} failed)`;
  out(`${canceled} job${canceled === 1 ? "" : "s"} canceled across shards${failures}`);
  return { canceled, failed };
}
