/**
 * Receiving `GET users/export` in the page: the admin token travels in a
 * header, so a plain link cannot download the file; the dashboard reads the
 * streamed body itself, counting users as they arrive, and then hands the
 * whole file to the browser as a download from a Blob URL.
 */
import { rowCounter } from "./row-counter.ts";

/** How far an export has come: complete users and bytes received. */
export interface ExportProgress {
  rows: number;
  bytes: number;
}

/** Least time between two progress reports, so a fast stream does not re-render the dialog per packet. */
const REPORT_EVERY_MS = 150;

/**
 * Reads an export's body to the end with a stream reader, calling
 * `onProgress` as it goes (at most every 150 ms, and once at the end), and
 * returns the file. Aborting the request's signal ends the read with an
 * `AbortError`.
 *
 * @example
 * ```ts
 * const response = await api.exportUsers({ query: { format: "csv" }, signal: controller.signal });
 * const file = await readExport(response, "csv", ({ rows, bytes }) => show(rows, bytes));
 * ```
 */
export async function readExport(
  response: Response,
  format: "csv" | "json",
  onProgress: (progress: ExportProgress) => void,
): Promise<{ blob: Blob; rows: number; bytes: number }> {
  const type = format === "csv" ? "text/csv" : "application/json";
  const parts: Uint8Array[] = [];
  const counter = rowCounter(format);
  const decoder = new TextDecoder();
  let bytes = 0;
  let reported = 0;
  const reader = response.body?.getReader();
  if (reader !== undefined) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      bytes += value.byteLength;
      counter.push(decoder.decode(value, { stream: true }));
      const now = Date.now();
      if (now - reported >= REPORT_EVERY_MS) {
        reported = now;
        onProgress({ rows: counter.rows, bytes });
      }
    }
  }
  counter.push(decoder.decode());
  onProgress({ rows: counter.rows, bytes });
  return { blob: new Blob(parts as BlobPart[], { type }), rows: counter.rows, bytes };
}

/**
 * The download's file name: `users-2026-11-25.csv`, dated in the operator's
 * own time zone.
 *
 * @example
 * ```ts
 * exportFileName("json", new Date(2026, 10, 25)); // "users-2026-11-25.json"
 * ```
 */
export function exportFileName(format: "csv" | "json", date: Date = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  const day = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  return `users-${day}.${format}`;
}

/**
 * Hands a file to the browser's download manager under `name`, through a
 * Blob URL that is released once the download has started.
 *
 * @example
 * ```ts
 * saveFile(new Blob(["id,email\r\n"], { type: "text/csv" }), "report.csv");
 * ```
 */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.click();
  // The click starts the download asynchronously; the URL must outlive it.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
