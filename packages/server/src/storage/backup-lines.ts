import { fromBase64, toBase64 } from "../values/json-codec.ts";
import { missingBytes } from "./missing-bytes.ts";
import { type FileRow, STORAGE_TABLE } from "./table.ts";

/**
 * Files in svc backups (docs/storage.md "Backups"): after the documents, one
 * line per stored file with its metadata, and — when the backup was asked
 * for them — its bytes in base64 lines of up to 768 KiB (1 MiB of text,
 * under the 2 MiB line limit), in order:
 *
 * ```
 * {"system":"_svc_storage","row":{"id":"_storage_…","size":5,"contentType":"text/plain","sha256":"…","createdAt":1764496800000,"uploader":"u1"}}
 * {"system":"_svc_storage_bytes","id":"_storage_…","offset":0,"data":"aGVsbG8="}
 * ```
 *
 * The header counts the files (`files`) and says whether bytes follow
 * (`fileBytes`), so a cut file is refused on restore.
 */
const ROW_SYSTEM = STORAGE_TABLE;
const BYTES_SYSTEM = `${STORAGE_TABLE}_bytes`;
/** What every file line starts with: it is told from a document line without parsing. */
const FILE_LINE_START = `{"system":"${STORAGE_TABLE}`;
/** Raw bytes per bytes line. */
export const BYTES_PER_LINE = 768 * 1024;
/** Files read per query while writing a backup. */
const ROWS_PER_PAGE = 500;

/** A stored file's metadata as a backup carries it. */
export interface BackedUpFile {
  id: string;
  size: number;
  contentType: string;
  sha256: string;
  createdAt: number;
  uploader: string | null;
}

/** One parsed file line: a file's metadata or a piece of its bytes. */
export type FileLine =
  | { kind: "row"; row: BackedUpFile }
  | { kind: "bytes"; id: string; offset: number; data: Uint8Array };

/**
 * Whether a backup line is a file line (written by {@link fileLines}) rather than a document.
 *
 * @example isFileLine('{"system":"_svc_storage","row":{…}}') // true
 */
export function isFileLine(text: string): boolean {
  return text.startsWith(FILE_LINE_START);
}

/**
 * How many stored (`ready`) files the shard has: the header's `files`.
 *
 * @example header.files = countStoredFiles(sql);
 */
export function countStoredFiles(sql: SqlStorage): number {
  return sql
    .exec<{ n: number }>(`SELECT COUNT(*) AS n FROM ${STORAGE_TABLE} WHERE state = 'ready'`)
    .one().n;
}

function rowLine(row: FileRow, sha256: string): string {
  const file: BackedUpFile = {
    id: row.id,
    size: row.size ?? 0,
    contentType: row.content_type ?? "application/octet-stream",
    sha256,
    createdAt: row.created_at,
    uploader: row.uploader,
  };
  return `{"system":"${ROW_SYSTEM}","row":${JSON.stringify(file)}}\n`;
}

function bytesLine(id: string, offset: number, data: Uint8Array): string {
  return `{"system":"${BYTES_SYSTEM}","id":${JSON.stringify(id)},"offset":${offset},"data":"${toBase64(data)}"}\n`;
}

async function* bytesLines(bucket: R2Bucket, key: string, row: FileRow): AsyncGenerator<string> {
  const object = await bucket.get(key);
  if (object === null) throw missingBytes(row.id);
  const buffer = new Uint8Array(BYTES_PER_LINE);
  let filled = 0;
  let offset = 0;
  for await (const chunk of object.body as unknown as AsyncIterable<Uint8Array>) {
    let from = 0;
    while (from < chunk.byteLength) {
      const take = Math.min(chunk.byteLength - from, BYTES_PER_LINE - filled);
      buffer.set(chunk.subarray(from, from + take), filled);
      filled += take;
      from += take;
      if (filled === BYTES_PER_LINE) {
        yield bytesLine(row.id, offset, buffer);
        offset += filled;
        filled = 0;
      }
    }
  }
  if (filled > 0) yield bytesLine(row.id, offset, buffer.subarray(0, filled));
}

/**
 * The file lines of a backup as a stream: every stored file's metadata and,
 * given a `bucket`, its bytes read from R2 (`files.key` names an id's
 * object). An upload's SHA-256 not yet computed is computed on the way
 * (`files.sha256Of`), so every file line carries one. It runs under the same
 * lock as the documents' export, so the files match them.
 *
 * @example followedBy(exportStream(sql, header, () => {}), () => fileLines(sql, bucket, files), release)
 */
export function fileLines(
  sql: SqlStorage,
  bucket: R2Bucket | null,
  files: { key(storageId: string): string; sha256Of(row: FileRow): Promise<string> },
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  async function* lines(): AsyncGenerator<string> {
    let after = "";
    for (;;) {
      const rows = sql
        .exec<FileRow>(
          `SELECT * FROM ${STORAGE_TABLE} WHERE state = 'ready' AND id > ? ORDER BY id LIMIT ?`,
          after,
          ROWS_PER_PAGE,
        )
        .toArray();
      if (rows.length === 0) return;
      for (const row of rows) {
        after = row.id;
        yield rowLine(row, await files.sha256Of(row));
        if (bucket !== null) yield* bytesLines(bucket, files.key(row.id), row);
      }
    }
  }
  const source = lines();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await source.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      },
      async cancel() {
        await source.return(undefined);
      },
    },
    { highWaterMark: 1 },
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Reads a file line, or answers why it is not one (the caller names the line).
 *
 * @example parseFileLine('{"system":"_svc_storage_bytes","id":"_storage_…","offset":0,"data":"aGk="}')
 */
export function parseFileLine(text: string): FileLine | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return "not valid JSON";
  }
  if (!isRecord(value)) return "not a JSON object";
  if (value.system === ROW_SYSTEM) {
    const row = value.row;
    if (
      !isRecord(row) ||
      typeof row.id !== "string" ||
      !/^_storage_[0-9a-z]{26}$/.test(row.id) ||
      !Number.isSafeInteger(row.size) ||
      (row.size as number) < 0 ||
      typeof row.contentType !== "string" ||
      typeof row.sha256 !== "string" ||
      !/^[0-9a-f]{64}$/.test(row.sha256) ||
      !Number.isSafeInteger(row.createdAt) ||
      !(row.uploader === null || typeof row.uploader === "string")
    )
      return "a file line needs row.id, size, contentType, sha256, createdAt and uploader";
    return { kind: "row", row: row as unknown as BackedUpFile };
  }
  if (value.system === BYTES_SYSTEM) {
    const data = typeof value.data === "string" ? fromBase64(value.data) : undefined;
    if (typeof value.id !== "string" || !Number.isSafeInteger(value.offset) || data === undefined)
      return "a file bytes line needs id, offset and base64 data";
    return { kind: "bytes", id: value.id, offset: value.offset as number, data };
  }
  return `unknown system table ${JSON.stringify(value.system)}`;
}
