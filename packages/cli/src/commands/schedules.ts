import { type ScheduledJobView, schedulesAdminRoutes } from "@svc/server/routes/contract";
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
