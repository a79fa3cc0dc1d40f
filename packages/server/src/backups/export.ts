import { EXPORT_STALL_MS, exportLease } from "./export-lease.ts";
import { type BackupHeader, documentLine, headerLine } from "./format.ts";
import type { BackupRow, SystemTableBackup } from "./system-tables.ts";

/** Rows read per step of an export, at most. */
const PAGE_ROWS = 1_000;
/** Bytes per chunk an export step aims for (one chunk may exceed it by one document). */
const CHUNK_BYTES = 512 * 1024;

/**
 * Streams a shard as a backup (docs/data-lifecycle.md): the header, then each
 * table's rows in rowid order, a page at a time, so memory stays bounded by
 * one chunk whatever the shard holds. The caller holds the shard's write
 * lock for the stream's life (a consistent snapshot); `release` is called
 * exactly once — at the end, on cancel, on error, or when the reader stalls
 * for {@link EXPORT_STALL_MS}. A header table that is one of `systemTables`
 * (svc's own, like the scheduler's pending jobs) is read through it.
 *
 * @example
 * ```ts
 * return exportStream(ctx.storage.sql, header, release);
 * ```
 */
export function exportStream(
  sql: SqlStorage,
  header: BackupHeader,
  release: () => void,
  systemTables: readonly SystemTableBackup[] = [],
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const tables = Object.keys(header.tables);
  let tableIndex = 0;
  let afterRowid = 0;
  let headerSent = false;
  const lease = exportLease(release);
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        lease.disarm();
        try {
          let chunk = "";
          if (!headerSent) {
            chunk = headerLine(header);
            headerSent = true;
          }
          while (chunk.length < CHUNK_BYTES && tableIndex < tables.length) {
            const table = tables[tableIndex]!;
            const system = systemTables.find((candidate) => candidate.table === table);
            const rows =
              system?.rows(sql, afterRowid, PAGE_ROWS) ??
              sql.exec<BackupRow>(
                `SELECT rowid, _id, _creationTime, _doc FROM "t_${table}" WHERE rowid > ? ORDER BY rowid LIMIT ?`,
                afterRowid,
                PAGE_ROWS,
              );
            let read = 0;
            for (const row of rows) {
              read += 1;
              afterRowid = row.rowid;
              chunk += documentLine(table, row._id, row._creationTime, row._doc);
              if (chunk.length >= CHUNK_BYTES) break;
            }
            if (read === 0) {
              tableIndex += 1;
              afterRowid = 0;
            }
          }
          if (chunk.length > 0) controller.enqueue(encoder.encode(chunk));
          if (tableIndex >= tables.length) {
            controller.close();
            lease.end();
            return;
          }
          lease.arm(controller);
        } catch (error) {
          lease.end();
          throw error;
        }
      },
      cancel() {
        lease.end();
      },
    },
    { highWaterMark: 1 },
  );
}
