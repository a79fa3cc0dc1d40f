import { meta, setMeta } from "./meta.ts";
import { ROLLUP_UNITS } from "./rollup-units.ts";

const DAY = 24 * 3_600_000;

/** How much a log store partition keeps. */
export interface Retention {
  /** Records older than this are deleted. @default 7 days */
  maxAgeMs: number;
  /**
   * Bytes of records (their JSON plus a row estimate) one partition keeps;
   * past it the oldest records go first, down to 90 %.
   * @default 134217728 (128 MiB)
   */
  maxBytes: number;
}

/** The defaults of {@link Retention}. */
export const DEFAULT_RETENTION: Retention = { maxAgeMs: 7 * DAY, maxBytes: 128 * 1024 * 1024 };

/** Rows deleted per statement, so one pass never blocks the object for long. */
const DELETE_CHUNK = 5_000;

/** How many records a partition holds and their bytes, as counted on write and pruning. */
export interface StoredSize {
  records: number;
  bytes: number;
}

/** The partition's size, kept in `_svc_log_meta` (counted once from the rows when missing). */
export function storedSize(sql: SqlStorage): StoredSize {
  const records = meta(sql, "records");
  const bytes = meta(sql, "bytes");
  if (records !== null && bytes !== null) return { records, bytes };
  const [row] = sql
    .exec("SELECT count(*) AS records, coalesce(sum(size), 0) AS bytes FROM _svc_calls")
    .toArray();
  const size = { records: Number(row?.records ?? 0), bytes: Number(row?.bytes ?? 0) };
  saveSize(sql, size);
  return size;
}

function saveSize(sql: SqlStorage, size: StoredSize): void {
  setMeta(sql, "records", Math.max(0, size.records));
  setMeta(sql, "bytes", Math.max(0, size.bytes));
}

/** Counts what a write added. */
export function addStored(sql: SqlStorage, records: number, bytes: number): void {
  const size = storedSize(sql);
  saveSize(sql, { records: size.records + records, bytes: size.bytes + bytes });
}

/**
 * Deletes the oldest records (by write order) until the partition is at
 * most 90 % of `maxBytes`, so the newest always stay.
 */
export function pruneBySize(sql: SqlStorage, maxBytes: number): void {
  const size = storedSize(sql);
  if (size.bytes <= maxBytes) return;
  const target = Math.floor(maxBytes * 0.9);
  while (size.bytes > target) {
    const rows = sql
      .exec("SELECT seq, size FROM _svc_calls ORDER BY seq LIMIT ?", DELETE_CHUNK)
      .toArray();
    if (rows.length === 0) {
      size.bytes = 0;
      size.records = 0;
      break;
    }
    let last = 0;
    for (const row of rows) {
      size.bytes -= Number(row.size);
      size.records -= 1;
      last = Number(row.seq);
      if (size.bytes <= target) break;
    }
    sql.exec("DELETE FROM _svc_calls_text WHERE rowid <= ?", last);
    sql.exec("DELETE FROM _svc_calls WHERE seq <= ?", last);
  }
  saveSize(sql, size);
}

/**
 * Deletes records past `maxAgeMs`, roll-ups past what their windows need,
 * and error groups not seen within `maxAgeMs`.
 */
export function pruneByAge(sql: SqlStorage, now: number, maxAgeMs: number): void {
  const cutoff = now - maxAgeMs;
  const size = storedSize(sql);
  for (;;) {
    const [row] = sql
      .exec(
        "SELECT coalesce(sum(size), 0) AS size, count(*) AS n FROM (SELECT size FROM _svc_calls WHERE time < ? ORDER BY time LIMIT ?)",
        cutoff,
        DELETE_CHUNK,
      )
      .toArray();
    const deleted = Number(row?.n ?? 0);
    if (deleted === 0) break;
    for (const table of ["_svc_calls_text", "_svc_calls"]) {
      const key = table === "_svc_calls" ? "seq" : "rowid";
      sql.exec(
        `DELETE FROM ${table} WHERE ${key} IN (SELECT seq FROM _svc_calls WHERE time < ? ORDER BY time LIMIT ?)`,
        cutoff,
        DELETE_CHUNK,
      );
    }
    size.bytes -= Number(row?.size ?? 0);
    size.records -= deleted;
    if (deleted < DELETE_CHUNK) break;
  }
  saveSize(sql, size);
  for (const { table, keptMs } of Object.values(ROLLUP_UNITS)) {
    sql.exec(`DELETE FROM ${table} WHERE bucket < ?`, now - keptMs);
  }
  sql.exec("DELETE FROM _svc_error_groups WHERE last_seen < ?", cutoff);
}
