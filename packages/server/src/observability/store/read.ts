import type { CallRecord } from "../record.ts";
import type {
  PartitionCursor,
  RecordFilters,
  ServiceRow,
  StoredCall,
  StoreStats,
} from "./endpoint.ts";
import { whereOf } from "./filters-sql.ts";
import type { StoredSize } from "./retention.ts";

type Row = Record<string, SqlStorageValue>;

function stored(row: Row): StoredCall {
  return {
    seq: Number(row.seq),
    time: Number(row.time),
    record: JSON.parse(String(row.body)) as CallRecord,
  };
}

/** One page of records, newest first, after `cursor`. */
export function listRecords(
  sql: SqlStorage,
  filters: RecordFilters,
  cursor: PartitionCursor | null,
  limit: number,
): StoredCall[] {
  const where = whereOf(filters, cursor);
  return sql
    .exec(
      `SELECT seq, time, body FROM _svc_calls WHERE ${where.clause}
       ORDER BY time DESC, seq DESC LIMIT ?`,
      ...where.bindings,
      limit,
    )
    .toArray()
    .map(stored);
}

/** The record of one request, or `null` when it is not (or no longer) stored here. */
export function getRecord(sql: SqlStorage, requestId: string): CallRecord | null {
  const [row] = sql
    .exec("SELECT body FROM _svc_calls WHERE request_id = ? ORDER BY seq DESC LIMIT 1", requestId)
    .toArray();
  return row === undefined ? null : (JSON.parse(String(row.body)) as CallRecord);
}

/** Records written after `afterSeq` (oldest first) and the newest sequence number. */
export function tailRecords(
  sql: SqlStorage,
  afterSeq: number,
  filters: RecordFilters,
  limit: number,
): { rows: StoredCall[]; lastSeq: number } {
  const where = whereOf(filters);
  const rows = sql
    .exec(
      `SELECT seq, time, body FROM _svc_calls WHERE seq > ? AND ${where.clause} ORDER BY seq LIMIT ?`,
      afterSeq,
      ...where.bindings,
      limit,
    )
    .toArray()
    .map(stored);
  const [newest] = sql.exec("SELECT max(seq) AS seq FROM _svc_calls").toArray();
  const full = limit > 0 && rows.length === limit;
  const lastSeq = full ? rows.at(-1)!.seq : Number(newest?.seq ?? afterSeq);
  return { rows, lastSeq: Math.max(afterSeq, lastSeq) };
}

/** Runs, failures and dead letters per cron job or queue since `since`, with the last run and failure. */
export function serviceRows(sql: SqlStorage, entry: "cron" | "queue", since: number): ServiceRow[] {
  const rows = sql
    .exec(
      `SELECT caller_id AS service, route, count(*) AS runs, sum(code IS NOT NULL) AS failures,
         sum(dead) AS dead FROM _svc_calls WHERE entry = ? AND time >= ? AND caller_id IS NOT NULL
       GROUP BY caller_id, route`,
      entry,
      since,
    )
    .toArray();
  const latest = (service: string, failed: boolean): CallRecord | null => {
    const [row] = sql
      .exec(
        `SELECT body FROM _svc_calls WHERE caller_id = ? AND entry = ? ${failed ? "AND code IS NOT NULL" : ""}
         ORDER BY time DESC LIMIT 1`,
        service,
        entry,
      )
      .toArray();
    return row === undefined ? null : (JSON.parse(String(row.body)) as CallRecord);
  };
  return rows.map((row) => ({
    service: String(row.service),
    route: String(row.route),
    runs: Number(row.runs),
    failures: Number(row.failures),
    deadLettered: Number(row.dead),
    last: latest(String(row.service), false),
    lastFailure: Number(row.failures) > 0 ? latest(String(row.service), true) : null,
  }));
}

/** How many records the partition holds, their bytes (both as counted on write) and the oldest time. */
export function storeStats(sql: SqlStorage, size: StoredSize): StoreStats {
  const [row] = sql.exec("SELECT time FROM _svc_calls ORDER BY time LIMIT 1").toArray();
  return {
    records: size.records,
    bytes: size.bytes,
    oldest: row === undefined ? null : Number(row.time),
  };
}
