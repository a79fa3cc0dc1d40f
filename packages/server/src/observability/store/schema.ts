import { BUCKETS } from "../histogram.ts";
import { ROLLUP_UNITS } from "./rollup-units.ts";

/** `b0, b1, …` : the histogram columns of every roll-up table. */
export const BUCKET_COLUMNS: readonly string[] = Array.from({ length: BUCKETS }, (_, i) => `b${i}`);

const bucketDefinitions = BUCKET_COLUMNS.map(
  (column) => `${column} INTEGER NOT NULL DEFAULT 0`,
).join(", ");

/**
 * The log store's tables. Every name starts with `_svc` (names svc reserves).
 * `_svc_calls` holds records (the full JSON in `body`, filter columns beside
 * it, an index per filter) and `_svc_calls_text` a trigram index of their
 * errors and console lines; the roll-ups hold per-minute, per-hour and per-6-hour counts
 * and duration histograms by (entry, route, code); `_svc_call_totals` holds
 * never-pruned counters for Prometheus; `_svc_error_groups` one row per error
 * shape; `_svc_drains` each drain's position.
 */
export const LOG_STORE_DDL: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS _svc_calls (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    time INTEGER NOT NULL,
    request_id TEXT NOT NULL,
    entry TEXT NOT NULL,
    route TEXT NOT NULL,
    status INTEGER NOT NULL,
    status_class INTEGER NOT NULL,
    code TEXT,
    caller_id TEXT,
    shard_key TEXT,
    dead INTEGER NOT NULL DEFAULT 0,
    size INTEGER NOT NULL,
    body TEXT NOT NULL
  )`,
  "CREATE INDEX IF NOT EXISTS _svc_calls_time ON _svc_calls (time)",
  "CREATE INDEX IF NOT EXISTS _svc_calls_route ON _svc_calls (route, time)",
  "CREATE INDEX IF NOT EXISTS _svc_calls_entry ON _svc_calls (entry, time)",
  // Answers other than 2xx only: most calls succeed, and a 2xx filter walks the time index,
  // finding matches at once. A store made before this index had one over every row.
  "DROP INDEX IF EXISTS _svc_calls_class",
  "CREATE INDEX IF NOT EXISTS _svc_calls_unusual_class ON _svc_calls (status_class, time) WHERE status_class <> 2",
  "CREATE INDEX IF NOT EXISTS _svc_calls_code ON _svc_calls (code, time) WHERE code IS NOT NULL",
  "CREATE INDEX IF NOT EXISTS _svc_calls_caller ON _svc_calls (caller_id, time) WHERE caller_id IS NOT NULL",
  "CREATE INDEX IF NOT EXISTS _svc_calls_shard ON _svc_calls (shard_key, time) WHERE shard_key IS NOT NULL",
  "CREATE INDEX IF NOT EXISTS _svc_calls_request ON _svc_calls (request_id)",
  // Text of errors and console lines for `q`: trigram-indexed (substrings, any case), contentless
  // (the text lives in `body` only), rowid = the record's seq.
  "CREATE VIRTUAL TABLE IF NOT EXISTS _svc_calls_text USING fts5(text, content='', contentless_delete=1, tokenize='trigram')",
  ...Object.values(ROLLUP_UNITS).map(
    ({ table }) => `CREATE TABLE IF NOT EXISTS ${table} (
      bucket INTEGER NOT NULL,
      entry TEXT NOT NULL,
      route TEXT NOT NULL,
      code TEXT NOT NULL,
      calls INTEGER NOT NULL,
      duration_sum REAL NOT NULL,
      ${bucketDefinitions},
      PRIMARY KEY (bucket, entry, route, code)
    ) WITHOUT ROWID`,
  ),
  `CREATE TABLE IF NOT EXISTS _svc_call_totals (
    entry TEXT NOT NULL,
    route TEXT NOT NULL,
    code TEXT NOT NULL,
    calls INTEGER NOT NULL,
    duration_sum REAL NOT NULL,
    ${bucketDefinitions},
    PRIMARY KEY (entry, route, code)
  ) WITHOUT ROWID`,
  `CREATE TABLE IF NOT EXISTS _svc_error_groups (
    fingerprint TEXT PRIMARY KEY,
    code TEXT NOT NULL,
    route TEXT NOT NULL,
    shape TEXT NOT NULL,
    count INTEGER NOT NULL,
    first_seen INTEGER NOT NULL,
    last_seen INTEGER NOT NULL,
    sample TEXT NOT NULL
  ) WITHOUT ROWID`,
  "CREATE INDEX IF NOT EXISTS _svc_error_groups_last ON _svc_error_groups (last_seen)",
  `CREATE TABLE IF NOT EXISTS _svc_log_meta (
    key TEXT PRIMARY KEY,
    value INTEGER NOT NULL
  ) WITHOUT ROWID`,
  `CREATE TABLE IF NOT EXISTS _svc_drains (
    name TEXT PRIMARY KEY,
    delivered INTEGER NOT NULL,
    failures INTEGER NOT NULL,
    next_at INTEGER NOT NULL,
    last_error TEXT
  ) WITHOUT ROWID`,
];
