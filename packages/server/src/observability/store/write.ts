import { bucketOf, emptyHistogram } from "../histogram.ts";
import type { CallRecord } from "../record.ts";
import { ROLLUP_UNITS, type RollupUnit } from "./rollup-units.ts";
import { BUCKET_COLUMNS } from "./schema.ts";
import { messageShape } from "./shape.ts";

/** Bytes a row costs beyond its JSON body: columns and index entries, roughly. */
const ROW_OVERHEAD = 160;

interface Delta {
  bucket: number;
  entry: string;
  route: string;
  code: string;
  calls: number;
  durationSum: number;
  histogram: number[];
}

function addTo(deltas: Map<string, Delta>, bucket: number, record: CallRecord): void {
  const code = record.code ?? "";
  const key = `${bucket}\u0000${record.entry}\u0000${record.route}\u0000${code}`;
  let delta = deltas.get(key);
  if (delta === undefined) {
    delta = {
      bucket,
      entry: record.entry,
      route: record.route,
      code,
      calls: 0,
      durationSum: 0,
      histogram: emptyHistogram(),
    };
    deltas.set(key, delta);
  }
  delta.calls++;
  delta.durationSum += record.durationMs;
  const index = bucketOf(record.durationMs);
  delta.histogram[index] = (delta.histogram[index] ?? 0) + 1;
}

const HISTOGRAM_PLACEHOLDERS = BUCKET_COLUMNS.map(() => "?").join(", ");
const HISTOGRAM_SUMS = BUCKET_COLUMNS.map(
  (column) => `${column} = ${column} + excluded.${column}`,
).join(", ");

function upsertRollup(sql: SqlStorage, table: string, delta: Delta, keyed: boolean): void {
  const keyColumns = keyed ? "bucket, entry, route, code" : "entry, route, code";
  const keyValues = keyed
    ? [delta.bucket, delta.entry, delta.route, delta.code]
    : [delta.entry, delta.route, delta.code];
  sql.exec(
    `INSERT INTO ${table} (${keyColumns}, calls, duration_sum, ${BUCKET_COLUMNS.join(", ")})
     VALUES (${keyValues.map(() => "?").join(", ")}, ?, ?, ${HISTOGRAM_PLACEHOLDERS})
     ON CONFLICT (${keyColumns}) DO UPDATE SET calls = calls + excluded.calls,
       duration_sum = duration_sum + excluded.duration_sum, ${HISTOGRAM_SUMS}`,
    ...keyValues,
    delta.calls,
    delta.durationSum,
    ...delta.histogram,
  );
}

/** Text the `q` filter searches: the error message and the console lines. */
function searchText(record: CallRecord): string | null {
  const parts = [record.error?.message ?? "", ...record.logs.map((line) => line.message)];
  const text = parts.filter(Boolean).join("\n");
  return text === "" ? null : text;
}

function callerId(record: CallRecord): string | null {
  return "id" in record.caller ? record.caller.id : null;
}

/** The columns of `_svc_calls` a batch fills, in the order of each row's JSON array. */
const ROW_COLUMNS =
  "time, request_id, entry, route, status, status_class, code, caller_id, shard_key, dead, size, body";

/**
 * Every row of a batch in one statement: the rows travel as one JSON array
 * bound once and unpacked by SQLite (`json_each`), in array order. Measured
 * on the bench's store: a statement per row spent more time crossing from JS
 * into SQLite than SQLite spent inserting.
 */
const INSERT_ROWS = `INSERT INTO _svc_calls (${ROW_COLUMNS})
  SELECT ${ROW_COLUMNS.split(", ")
    .map((_, index) => `value ->> ${index}`)
    .join(", ")}
  FROM json_each(?) ORDER BY key`;

/** The last `seq` handed out in `_svc_calls` (0 before the first row). */
function lastSeq(sql: SqlStorage): number {
  const [row] = sql.exec("SELECT seq FROM sqlite_sequence WHERE name = '_svc_calls'").toArray();
  return row === undefined ? 0 : Number(row.seq);
}

/** What {@link writeBatch} stored: its bytes and the `seq` of its first record. */
export interface BatchWritten {
  bytes: number;
  firstSeq: number;
}

/**
 * Writes a batch in one transaction: the records into `_svc_calls` (one
 * statement), their text into the trigram index, their counts into the
 * roll-ups (minutes, hours, quarter days) and the totals, and each failure
 * into its error group. `bodies` are the records' JSON texts, as the writer
 * sent them: stored as they are. Answers the bytes the batch added and where
 * its rows start.
 *
 * @example
 * ```ts
 * const { bytes } = ctx.storage.transactionSync(() => writeBatch(ctx.storage.sql, records, bodies));
 * ```
 */
export function writeBatch(
  sql: SqlStorage,
  records: readonly CallRecord[],
  bodies: readonly string[],
): BatchWritten {
  let bytes = 0;
  const units = Object.keys(ROLLUP_UNITS) as RollupUnit[];
  const rollups = new Map(units.map((unit) => [unit, new Map<string, Delta>()]));
  const totals = new Map<string, Delta>();
  const rows: unknown[][] = [];
  const texts: { index: number; text: string }[] = [];
  for (let index = 0; index < records.length; index++) {
    const record = records[index]!;
    const time = Date.parse(record.time);
    const body = bodies[index]!;
    const size = body.length + ROW_OVERHEAD;
    bytes += size;
    rows.push([
      time,
      record.requestId,
      record.entry,
      record.route,
      record.status,
      Math.floor(record.status / 100),
      record.code,
      callerId(record),
      record.shardKey,
      record.queue?.deadLettered === true ? 1 : 0,
      size,
      body,
    ]);
    const text = searchText(record);
    if (text !== null) texts.push({ index: rows.length - 1, text });
    for (const unit of units) {
      addTo(rollups.get(unit)!, time - (time % ROLLUP_UNITS[unit].ms), record);
    }
    addTo(totals, 0, record);
    if (record.code !== null) {
      const shape = messageShape(record.error?.message ?? record.code);
      sql.exec(
        `INSERT INTO _svc_error_groups (fingerprint, code, route, shape, count, first_seen, last_seen, sample)
         VALUES (?, ?, ?, ?, 1, ?, ?, ?)
         ON CONFLICT (fingerprint) DO UPDATE SET count = count + 1,
           first_seen = min(first_seen, excluded.first_seen),
           last_seen = max(last_seen, excluded.last_seen),
           sample = CASE WHEN excluded.last_seen >= last_seen THEN excluded.sample ELSE sample END`,
        `${record.code}\u0000${record.route}\u0000${shape}`,
        record.code,
        record.route,
        shape,
        time,
        time,
        body,
      );
    }
  }
  // AUTOINCREMENT numbers the rows of one statement consecutively, in insertion order.
  const first = lastSeq(sql) + 1;
  sql.exec(INSERT_ROWS, JSON.stringify(rows));
  for (const { index, text } of texts) {
    sql.exec("INSERT INTO _svc_calls_text (rowid, text) VALUES (?, ?)", first + index, text);
  }
  for (const unit of units) {
    for (const delta of rollups.get(unit)!.values()) {
      upsertRollup(sql, ROLLUP_UNITS[unit].table, delta, true);
    }
  }
  for (const delta of totals.values()) upsertRollup(sql, "_svc_call_totals", delta, false);
  return { bytes, firstSeq: first };
}
