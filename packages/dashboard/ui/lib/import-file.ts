/**
 * A file an operator picked to import, read into user records in the
 * browser, so it can be checked before anything is sent and sent in requests
 * the server accepts (at most 500 users and 2 MiB each), with progress.
 */
import { CsvError, type CsvTable, readCsvTable } from "@svc/auth/admin-contract";

/** Largest file the import screen reads (it is held in the tab's memory). */
export const MAX_IMPORT_FILE_BYTES = 50 * 1024 * 1024;

/** Most users in one `POST users/import` (the server's limit). */
export const IMPORT_CHUNK_ROWS = 500;

/** Most JSON bytes in one request: under the server's 2 MiB (2,097,152 bytes) body limit. */
export const IMPORT_CHUNK_BYTES = 2_000_000;

/** A file that cannot be imported, in words the operator can act on. */
export class ImportFileError extends Error {
  override readonly name = "ImportFileError";
}

/** One user of the file: where it is (`row`: the CSV line it starts on, or its position in the JSON array from 1) and its fields. */
export interface ImportSourceRow {
  row: number;
  record: Record<string, unknown>;
}

/** A file read for import. */
export interface ImportFile {
  name: string;
  format: "csv" | "json";
  rows: ImportSourceRow[];
}

/**
 * The file's format from its name or type, or an {@link ImportFileError}
 * for anything else and for a file over {@link MAX_IMPORT_FILE_BYTES}: both
 * are known before reading a byte.
 *
 * @example
 * ```ts
 * importFormat({ name: "users.csv", type: "text/csv", size: 1200 }); // "csv"
 * ```
 */
export function importFormat(file: { name: string; type: string; size: number }): "csv" | "json" {
  const name = file.name.toLowerCase();
  const format =
    name.endsWith(".csv") || file.type === "text/csv"
      ? "csv"
      : name.endsWith(".json") || file.type === "application/json"
        ? "json"
        : null;
  if (format === null) {
    throw new ImportFileError(`${file.name} is not a .csv or .json file.`);
  }
  if (file.size > MAX_IMPORT_FILE_BYTES) {
    const megabytes = Math.ceil(file.size / 1e6).toLocaleString("en");
    throw new ImportFileError(
      `${file.name} is ${megabytes} MB; the limit is 50 MB. Split it into smaller files.`,
    );
  }
  if (file.size === 0) throw new ImportFileError(`${file.name} is empty.`);
  return format;
}

/**
 * Reads a picked file into user records: CSV with a header row (cells
 * unguarded, see {@link readCsvTable}), or a JSON array of objects (or
 * `{ "users": [...] }`), as `GET users/export` writes them.
 *
 * @throws {ImportFileError} naming the file's problem (and its line or item)
 * @example
 * ```ts
 * const file = await readImportFile(input.files[0]);
 * file.rows.length; // 2400
 * ```
 */
export async function readImportFile(file: File): Promise<ImportFile> {
  const format = importFormat(file);
  return { name: file.name, format, rows: importRows(format, await file.text(), file.name) };
}

/**
 * The users in a file's text (see {@link readImportFile}).
 *
 * @throws {ImportFileError} naming the problem
 * @example
 * ```ts
 * importRows("csv", "email,name\r\nann@example.com,Ann\r\n"); // [{ row: 2, record: { email: "ann@example.com", name: "Ann" } }]
 * ```
 */
export function importRows(
  format: "csv" | "json",
  text: string,
  name = "The file",
): ImportSourceRow[] {
  const rows = format === "csv" ? csvRows(text, name) : jsonRows(text, name);
  if (rows.length === 0) throw new ImportFileError(`${name} holds no users.`);
  return rows;
}

function csvRows(text: string, name: string): ImportSourceRow[] {
  let table: CsvTable;
  try {
    table = readCsvTable(text);
  } catch (error) {
    if (error instanceof CsvError) {
      throw new ImportFileError(`${name} cannot be read as CSV. ${error.message}`);
    }
    throw error;
  }
  if (table.header.length > 0 && !table.header.includes("email")) {
    throw new ImportFileError(`${name} has no "email" column in its first line.`);
  }
  return table.records.map(({ line, cells }) => ({ row: line, record: cells }));
}

function jsonRows(text: string, name: string): ImportSourceRow[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ImportFileError(`${name} is not valid JSON.`);
  }
  if (isRecord(value) && Array.isArray(value.users)) value = value.users;
  if (!Array.isArray(value)) {
    throw new ImportFileError(`${name} must hold a JSON array of users (or { "users": [...] }).`);
  }
  return value.map((record, index) => {
    if (!isRecord(record)) {
      throw new ImportFileError(`${name}: item ${index + 1} is not a user object.`);
    }
    return { row: index + 1, record };
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Splits rows into the requests the server accepts: at most
 * {@link IMPORT_CHUNK_ROWS} users and about {@link IMPORT_CHUNK_BYTES} of
 * JSON each, in file order.
 *
 * @example
 * ```ts
 * importChunks(file.rows).map((chunk) => chunk.length); // [500, 500, 200]
 * ```
 */
export function importChunks(
  rows: readonly ImportSourceRow[],
  limits: { rows: number; bytes: number } = { rows: IMPORT_CHUNK_ROWS, bytes: IMPORT_CHUNK_BYTES },
): ImportSourceRow[][] {
  const chunks: ImportSourceRow[][] = [];
  let chunk: ImportSourceRow[] = [];
  let bytes = 2;
  const encoder = new TextEncoder();
  for (const row of rows) {
    // The record's UTF-8 bytes in the JSON array, with its comma.
    const size = encoder.encode(JSON.stringify(row.record)).byteLength + 1;
    if (chunk.length > 0 && (chunk.length === limits.rows || bytes + size > limits.bytes)) {
      chunks.push(chunk);
      chunk = [];
      bytes = 2;
    }
    chunk.push(row);
    bytes += size;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}
