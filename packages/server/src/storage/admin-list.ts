import { SvcError } from "../errors/svc-error.ts";
import type { FileAdminView } from "./admin-contract.ts";
import type { FileStore } from "./file-store.ts";
import { referencesTo } from "./references.ts";
import { type FileRow, listFileRows } from "./table.ts";

/** References shown per file in the admin list. */
const REFERENCES_SHOWN = 5;

async function viewOf(files: FileStore, row: FileRow): Promise<FileAdminView> {
  return {
    storageId: row.id,
    state: row.state,
    size: row.size,
    contentType: row.content_type,
    sha256: row.state === "ready" ? await files.sha256Of(row) : row.sha256,
    createdAt: new Date(row.created_at).toISOString(),
    uploader: row.uploader,
    references: referencesTo(files.sql, files.probes, row.id, REFERENCES_SHOWN),
  };
}

function parseCursor(cursor: string | null): { createdAt: number; id: string } | null {
  if (cursor === null) return null;
  const match = /^(\d{1,16})\.(_storage_[0-9a-z]{26})$/.exec(cursor);
  if (match === null) throw new SvcError("BAD_REQUEST", "This cursor is not one a page answered.");
  return { createdAt: Number(match[1]), id: match[2]! };
}

/**
 * One page of a shard's files for the operator: every state, with the
 * documents that reference each (RLS not applied), and the cursor of the
 * next page (`<created at>.<id>`, `null` at the end). A stored upload's
 * SHA-256 not yet computed is computed here (once: it is recorded).
 *
 * @example await listFiles(files, null, 50)
 */
export async function listFiles(
  files: FileStore,
  cursor: string | null,
  limit: number,
): Promise<{ files: FileAdminView[]; cursor: string | null }> {
  const rows = listFileRows(files.sql, parseCursor(cursor), limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    files: await Promise.all(page.map((row) => viewOf(files, row))),
    cursor: rows.length > limit && last !== undefined ? `${last.created_at}.${last.id}` : null,
  };
}
