const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

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

/** How long per-minute roll-ups are kept (they serve the 1 h window). */
const MINUTES_KEPT_MS = 3 * HOUR;
/** How long per-hour roll-ups are kept (they serve the 24 h and 7 d windows). */
const HOURS_KEPT_MS = 31 * DAY;
/** Rows deleted per statement, so one pass never blocks the object for long. */
const DELETE_CHUNK = 5_000;

function meta(sql: SqlStorage, key: string): number | null {
  const [row] = sql.exec("SELECT value FROM _svc_log_meta WHERE key = ?", key).toArray();
  return row === undefined ? null : Number(row.value);
}

function setMeta(sql: SqlStorage, key: string, value: number): void {
  sql.exec(
    "INSERT INTO _svc_log_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    key,
    value,
  );
}

/** Bytes the partition's records take, as counted on write (summed once if never counted). */
export function storedBytes(sql: SqlStorage): number {
  const known = meta(sql, "bytes");
  if (known !== null) return known;
  const [row] = sql.exec("SELECT coalesce(sum(size), 0) AS bytes FROM _svc_calls").toArray();
  const bytes = Number(row?.bytes ?? 0);
  setMeta(sql, "bytes", bytes);
  return bytes;
}

/** Counts bytes a write added. */
export function addStoredBytes(sql: SqlStorage, bytes: number): number {
  const total = storedBytes(sql) + bytes;
  setMeta(sql, "bytes", total);
  return total;
}

/**
 * Deletes the oldest records (by write order) until the partition is at
 * most 90 % of `maxBytes`, so the newest always stay. Answers the bytes left.
 */
export function pruneBySize(sql: SqlStorage, maxBytes: number): number {
  let bytes = storedBytes(sql);
  if (bytes <= maxBytes) return bytes;
  const target = Math.floor(maxBytes * 0.9);
  while (bytes > target) {
    const rows = sql
      .exec("SELECT seq, size FROM _svc_calls ORDER BY seq LIMIT ?", DELETE_CHUNK)
      .toArray();
    if (rows.length === 0) {
      bytes = 0;
      break;
    }
    let last = 0;
    for (const row of rows) {
      bytes -= Number(row.size);
      last = Number(row.seq);
      if (bytes <= target) break;
    }
    sql.exec("DELETE FROM _svc_calls_text WHERE rowid <= ?", last);
    sql.exec("DELETE FROM _svc_calls WHERE seq <= ?", last);
  }
  setMeta(sql, "bytes", Math.max(0, bytes));
  return Math.max(0, bytes);
}

/**
 * Deletes records past `maxAgeMs`, roll-ups past what their windows need,
 * and error groups not seen within `maxAgeMs`.
 */
export function pruneByAge(sql: SqlStorage, now: number, maxAgeMs: number): void {
  const cutoff = now - maxAgeMs;
  let freed = 0;
  for (;;) {
    const [row] = sql
      .exec(
        "SELECT max(seq) AS seq, coalesce(sum(size), 0) AS size, count(*) AS n FROM (SELECT seq, size FROM _svc_calls WHERE time < ? ORDER BY time LIMIT ?)",
        cutoff,
        DELETE_CHUNK,
      )
      .toArray();
    if (row === undefined || Number(row.n) === 0) break;
    for (const table of ["_svc_calls_text", "_svc_calls"]) {
      const key = table === "_svc_calls" ? "seq" : "rowid";
      sql.exec(
        `DELETE FROM ${table} WHERE ${key} IN (SELECT seq FROM _svc_calls WHERE time < ? ORDER BY time LIMIT ?)`,
        cutoff,
        DELETE_CHUNK,
      );
    }
    freed += Number(row.size);
    if (Number(row.n) < DELETE_CHUNK) break;
  }
  if (freed > 0) setMeta(sql, "bytes", Math.max(0, storedBytes(sql) - freed));
  sql.exec("DELETE FROM _svc_call_minutes WHERE bucket < ?", now - MINUTES_KEPT_MS);
  sql.exec("DELETE FROM _svc_call_hours WHERE bucket < ?", now - HOURS_KEPT_MS);
  sql.exec("DELETE FROM _svc_error_groups WHERE last_seen < ?", cutoff);
}
