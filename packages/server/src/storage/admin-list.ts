import { SvcError } from "../errors/svc-error.ts";
import type { FileAdminView } from "./admin-contract.ts";
import type { FileStore } from "./file-store.ts";
import { referencesTo } from "./references.ts";
import { type FileRow, listFileRows } from "./table.ts";

/** References shown per file in the admin list. */
const REFERENCES_SHOWN = 5;
/** Bytes one page may read back from R2 to hash uploads not hashed yet (the rest show `null`). */
const HASHED_PER_PAGE = 64 * 1024 * 1024;

function viewOf(files: FileStore, row: FileRow, sha256: string | null): FileAdminView {
  return {
    storageId: row.id,
    state: row.state,
    size: row.size,
    contentType: row.content_type,
    sha256,
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
 * SHA-256 not yet computed is computed here and recorded, one file at a
 * time, up to 64 MiB of bytes read per page; past that it is `null` until
 * a page lists it again, `getMetadata` reads it or a backup takes it.
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
  const views: FileAdminView[] = [];
  let budget = HASHED_PER_PAGE;
  for (const row of page) {
    const hashable = row.state === "ready" && row.sha256 === null && (row.size ?? 0) <= budget;
    if (hashable) budget -= row.size ?? 0;
    views.push(viewOf(files, row, hashable ? await files.sha256Of(row) : row.sha256));
  }
  return {
    files: views,
    cursor: rows.length > limit && last !== undefined ? `${last.created_at}.${last.id}` : null,
  };
}
