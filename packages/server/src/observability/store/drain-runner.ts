import type { CallRecord } from "../record.ts";
import type { LogDrain } from "./drain.ts";

/** The first retry waits this long; each further failure doubles it. */
const FIRST_RETRY_MS = 1_000;
/** Retries never wait longer than this. */
const MAX_RETRY_MS = 5 * 60_000;
/** A delivery that takes longer counts as failed. */
const SEND_TIMEOUT_MS = 30_000;

interface DrainState {
  delivered: number;
  failures: number;
  nextAt: number;
}

function stateOf(sql: SqlStorage, name: string): DrainState {
  const [row] = sql
    .exec("SELECT delivered, failures, next_at FROM _svc_drains WHERE name = ?", name)
    .toArray();
  if (row !== undefined) {
    return {
      delivered: Number(row.delivered),
      failures: Number(row.failures),
      nextAt: Number(row.next_at),
    };
  }
  // A new drain starts at the records written from now on, not at the whole history.
  const [newest] = sql.exec("SELECT coalesce(max(seq), 0) AS seq FROM _svc_calls").toArray();
  const state = { delivered: Number(newest?.seq ?? 0), failures: 0, nextAt: 0 };
  saveState(sql, name, state, null);
  return state;
}

function saveState(sql: SqlStorage, name: string, state: DrainState, error: string | null): void {
  sql.exec(
    `INSERT INTO _svc_drains (name, delivered, failures, next_at, last_error) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (name) DO UPDATE SET delivered = excluded.delivered, failures = excluded.failures,
       next_at = excluded.next_at, last_error = excluded.last_error`,
    name,
    state.delivered,
    state.failures,
    state.nextAt,
    error,
  );
}

async function within(work: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    await Promise.race([work, late]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

/** Makes sure every drain has its position row (new drains start at the newest record). */
export function registerDrains(sql: SqlStorage, drains: readonly LogDrain[]): void {
  for (const drain of drains) stateOf(sql, drain.name);
}

/**
 * One delivery round: each drain that is due gets its next batch. A success
 * moves its position past the batch; a failure keeps it and waits (1 s,
 * doubling, at most 5 min). Answers when the store should run the next round,
 * or `null` when every drain is caught up.
 */
export async function deliverRound(
  sql: SqlStorage,
  drains: readonly LogDrain[],
  now: () => number,
): Promise<number | null> {
  let next: number | null = null;
  const want = (at: number) => {
    next = next === null ? at : Math.min(next, at);
  };
  for (const drain of drains) {
    const state = stateOf(sql, drain.name);
    if (state.nextAt > now()) {
      want(state.nextAt);
      continue;
    }
    const limit = drain.batchSize ?? 200;
    const rows = sql
      .exec(
        "SELECT seq, body FROM _svc_calls WHERE seq > ? ORDER BY seq LIMIT ?",
        state.delivered,
        limit,
      )
      .toArray();
    if (rows.length === 0) continue;
    const records = rows.map((row) => JSON.parse(String(row.body)) as CallRecord);
    try {
      await within(drain.send(records), SEND_TIMEOUT_MS);
      const delivered = Number(rows.at(-1)!.seq);
      saveState(sql, drain.name, { delivered, failures: 0, nextAt: 0 }, null);
      if (rows.length === limit) want(now());
    } catch (error) {
      const failures = state.failures + 1;
      const wait = Math.min(FIRST_RETRY_MS * 2 ** (failures - 1), MAX_RETRY_MS);
      const message = error instanceof Error ? error.message : String(error);
      saveState(
        sql,
        drain.name,
        { ...state, failures, nextAt: now() + wait },
        message.slice(0, 500),
      );
      want(now() + wait);
    }
  }
  return next;
}
