import type { JobState } from "./job-view.ts";

/**
 * `_svc_scheduled`: the shard's scheduled jobs, one row each, in the shard's
 * own SQLite (names starting with `_svc` are reserved for svc). A job is
 * written in the transaction of the mutation that schedules it and finished
 * in the transaction of the mutation it runs, which is what makes a
 * scheduled mutation run exactly once (docs/scheduler.md).
 */
export const SCHEDULED_TABLE = "_svc_scheduled";

/** One stored job, as SQLite returns it. */
export interface JobRow {
  [column: string]: SqlStorageValue;
  id: string;
  path: string;
  kind: "mutation" | "action";
  /** The arguments, validated, in svc's JSON encoding. */
  args: string;
  /** When it is due (epoch ms); for a waiting retry, when the next attempt is. */
  run_at: number;
  state: JobState;
  attempts: number;
  /** The scheduling caller's identity (svc JSON), or `null` for anonymous. */
  identity: string | null;
  /** The scheduling service (`cron:<job>`), or `null`. */
  service: string | null;
  /** The scheduling user's id, for listing a user's jobs. */
  user_id: string | null;
  /** Another shard this job is to run in: this row only forwards it there when due. */
  target_shard: string | null;
  /** Where the scheduling call's record went (a `RecordingPlan`, JSON), or `null`. */
  plan: string | null;
  error: string | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
}

/** Creates the table and its index when absent. Cheap; idempotent. */
export function ensureScheduledTable(sql: SqlStorage): void {
  sql.exec(
    `CREATE TABLE IF NOT EXISTS ${SCHEDULED_TABLE} (
      id TEXT PRIMARY KEY, path TEXT NOT NULL, kind TEXT NOT NULL, args TEXT NOT NULL,
      run_at INTEGER NOT NULL, state TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
      identity TEXT, service TEXT, user_id TEXT, target_shard TEXT, plan TEXT, error TEXT,
      created_at INTEGER NOT NULL, started_at INTEGER, finished_at INTEGER)`,
  );
  sql.exec(
    `CREATE INDEX IF NOT EXISTS ${SCHEDULED_TABLE}_by_state ON ${SCHEDULED_TABLE} (state, run_at)`,
  );
}

/** Jobs not finished yet: what the pending limit counts and the alarm waits for. */
export function countUnfinished(sql: SqlStorage): number {
  const [row] = sql
    .exec<{ n: number }>(
      `SELECT count(*) AS n FROM ${SCHEDULED_TABLE} WHERE state IN ('pending', 'running')`,
    )
    .toArray();
  return row?.n ?? 0;
}

/** When the earliest pending job is due, or `null` when none waits. */
export function earliestDue(sql: SqlStorage): number | null {
  const [row] = sql
    .exec<{ at: number | null }>(
      `SELECT min(run_at) AS at FROM ${SCHEDULED_TABLE} WHERE state = 'pending'`,
    )
    .toArray();
  return row?.at ?? null;
}

/**
 * The last row stored so far (SQLite's rowid, which grows with each insert
 * while rows stay), or 0: a drain runs the jobs stored before it began.
 */
export function lastStored(sql: SqlStorage): number {
  const [row] = sql
    .exec<{ last: number | null }>(`SELECT max(rowid) AS last FROM ${SCHEDULED_TABLE}`)
    .toArray();
  return row?.last ?? 0;
}

/** Up to `limit` pending jobs due by `until` and stored by row `through`, earliest first. */
export function dueJobs(sql: SqlStorage, until: number, through: number, limit: number): JobRow[] {
  return sql
    .exec<JobRow>(
      `SELECT * FROM ${SCHEDULED_TABLE} WHERE state = 'pending' AND run_at <= ? AND rowid <= ? ORDER BY run_at, id LIMIT ?`,
      until,
      through,
      limit,
    )
    .toArray();
}

/** One job, or `undefined`. */
export function jobById(sql: SqlStorage, id: string): JobRow | undefined {
  return sql.exec<JobRow>(`SELECT * FROM ${SCHEDULED_TABLE} WHERE id = ?`, id).toArray()[0];
}

/**
 * Moves a job from one state to another, only if it is still in `from`
 * (so a job canceled meanwhile is never started, and one started never
 * canceled). Answers whether it moved.
 */
export function moveJob(
  sql: SqlStorage,
  id: string,
  from: JobState,
  to: Partial<
    Pick<JobRow, "state" | "run_at" | "attempts" | "error" | "started_at" | "finished_at">
  >,
): boolean {
  const columns = Object.keys(to);
  const assignments = columns.map((column) => `${column} = ?`).join(", ");
  const cursor = sql.exec(
    `UPDATE ${SCHEDULED_TABLE} SET ${assignments} WHERE id = ? AND state = ?`,
    ...columns.map((column) => to[column as keyof typeof to] ?? null),
    id,
    from,
  );
  return cursor.rowsWritten > 0;
}
