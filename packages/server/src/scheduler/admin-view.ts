import { SvcError } from "../errors/svc-error.ts";
import { isoTime } from "../observability/iso-time.ts";
import type { JobPage, JobState, ScheduledJobView } from "./job-view.ts";
import { ensureScheduledTable, type JobRow, SCHEDULED_TABLE } from "./table.ts";

/** Which jobs an operator means: all of these that are given must match. */
export interface JobFilter {
  state?: JobState;
  /** The job's function path (`reminders:send`). */
  function?: string;
  /** The id of the user who scheduled the job. */
  userId?: string;
}

/** What an operator cancels: jobs by id, or every pending job a filter selects (`all` for every one). */
export interface JobSelection {
  ids?: readonly string[];
  function?: string;
  userId?: string;
  all?: boolean;
}

const time = (at: number | null) => (at === null ? null : isoTime(at));

/**
 * Ids per cancel statement: a Durable Object's SQLite takes at most 100
 * bound parameters in one statement, and a cancel binds up to 3 besides.
 */
const IDS_PER_STATEMENT = 90;

function runsAs(row: JobRow): string {
  if (row.service !== null) return `service:${row.service}`;
  if (row.identity === null) return "anonymous";
  const identity = JSON.parse(row.identity) as { userId: string; apiKey?: { id: string } };
  return identity.apiKey === undefined ? `user:${identity.userId}` : `apiKey:${identity.apiKey.id}`;
}

function viewOf(row: JobRow): ScheduledJobView {
  return {
    id: row.id,
    function: row.path,
    kind: row.kind,
    state: row.state,
    dueAt: isoTime(row.run_at),
    attempts: row.attempts,
    args: JSON.parse(row.args),
    runsAs: runsAs(row),
    error: row.error,
    targetShard: row.target_shard,
    createdAt: isoTime(row.created_at),
    startedAt: time(row.started_at),
    finishedAt: time(row.finished_at),
  };
}

function where(filter: JobFilter): { sql: string[]; values: SqlStorageValue[] } {
  const columns = [
    ["state", filter.state],
    ["path", filter.function],
    ["user_id", filter.userId],
  ] as const;
  const given = columns.filter(([, value]) => value !== undefined);
  return {
    sql: given.map(([column]) => `${column} = ?`),
    values: given.map(([, value]) => value as string),
  };
}

function parseCursor(cursor: string | null): { at: number; id: string } | null {
  if (cursor === null) return null;
  const cut = cursor.indexOf(":");
  const at = Number(cursor.slice(0, cut));
  if (cut <= 0 || !Number.isSafeInteger(at))
    throw new SvcError("BAD_REQUEST", "The cursor is not one this list gave.");
  return { at, id: cursor.slice(cut + 1) };
}

/**
 * A page of a shard's jobs matching `filter`, by due time then id.
 *
 * @example listJobs(sql, { state: "failed" }, null, 50)
 */
export function listJobs(
  sql: SqlStorage,
  filter: JobFilter,
  cursor: string | null,
  limit: number,
): JobPage {
  ensureScheduledTable(sql);
  const { sql: clauses, values } = where(filter);
  const after = parseCursor(cursor);
  if (after !== null) {
    clauses.push("(run_at > ? OR (run_at = ? AND id > ?))");
    values.push(after.at, after.at, after.id);
  }
  const condition = clauses.length === 0 ? "" : `WHERE ${clauses.join(" AND ")}`;
  const rows = sql
    .exec<JobRow>(
      `SELECT * FROM ${SCHEDULED_TABLE} ${condition} ORDER BY run_at, id LIMIT ?`,
      ...values,
      limit + 1,
    )
    .toArray();
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    jobs: page.map(viewOf),
    nextCursor: rows.length > limit && last !== undefined ? `${last.run_at}:${last.id}` : null,
  };
}

/**
 * Cancels the pending jobs a selection names and answers how many. A
 * selection naming nothing (no ids, no filter, no `all`) is refused, so an
 * empty form never cancels a shard's every job.
 *
 * @example cancelJobs(sql, { function: "reminders:send" }) // 12
 */
export function cancelJobs(sql: SqlStorage, selection: JobSelection): number {
  const { ids, all } = selection;
  const filter = { function: selection.function, userId: selection.userId };
  const { sql: clauses, values } = where(filter);
  if (ids === undefined && clauses.length === 0 && all !== true)
    throw new SvcError("BAD_REQUEST", "Name the jobs to cancel: ids, function, userId or all.");
  ensureScheduledTable(sql);
  clauses.push("state = 'pending'");
  const now = Date.now();
  // RETURNING counts jobs; `rowsWritten` would count their index entries too.
  const cancel = (condition: string[], bound: SqlStorageValue[]) =>
    sql
      .exec(
        `UPDATE ${SCHEDULED_TABLE} SET state = 'canceled', finished_at = ? WHERE ${condition.join(" AND ")} RETURNING id`,
        now,
        ...bound,
      )
      .toArray().length;
  if (ids === undefined) return cancel(clauses, values);
  // A job canceled by an earlier chunk is no longer pending: an id given twice counts once.
  // The chunks run with no await between them, so the shard commits them together.
  let canceled = 0;
  for (let start = 0; start < ids.length; start += IDS_PER_STATEMENT) {
    const chunk = ids.slice(start, start + IDS_PER_STATEMENT);
    canceled += cancel(
      [...clauses, `id IN (${chunk.map(() => "?").join(", ")})`],
      [...values, ...chunk],
    );
  }
  return canceled;
}
