import { integer, text } from "../routes/contract/fields.ts";
import { fileAnswer, rawBody, route, routeGroup, typedAnswer } from "../routes/contract/route.ts";
import { v } from "../values/index.ts";

/** Files per page of the admin list when `limit` is not given. */
export const FILES_PAGE = 50;

/** One file as the admin list shows it. */
export interface FileAdminView {
  storageId: string;
  /** `ready`, or `pending`/`uploading` (an upload URL issued or under way), `deleted` (bytes going). */
  state: string;
  size: number | null;
  contentType: string | null;
  /** Hex SHA-256 of the bytes; `null` before they are stored, or while an upload's is not computed yet. */
  sha256: string | null;
  /** ISO-8601: when the bytes were stored (or the upload URL issued). */
  createdAt: string;
  /** The user the upload URL was issued to, or `null`. */
  uploader: string | null;
  /** Documents that reference the file (up to 5), RLS not applied. */
  references: { table: string; id: string }[];
}

/**
 * The files admin routes (`/_svc/admin/files/*`, docs/storage.md): list a
 * shard's files with their owner documents, download, upload and delete
 * one (uploads and deletes audited with the operator). Declared once: `createWorker` serves them, the docs table and a typed
 * client derive from them.
 */
export const filesAdminRoutes = routeGroup({
  prefix: "/_svc/admin/files/",
  tag: "files",
  routes: {
    listFiles: route({
      method: "GET",
      path: "shards/:key",
      summary: "A shard's files, oldest first, with the documents that reference them",
      query: v.object({ cursor: v.optional(text(100)), limit: v.optional(integer(1, 200)) }),
      answer: typedAnswer<{ files: FileAdminView[]; cursor: string | null }>(
        "A page of files and the cursor of the next page (null at the end)",
      ),
      errors: ["NOT_FOUND", "BAD_REQUEST"],
    }),
    downloadFile: route({
      method: "GET",
      path: "shards/:key/:id",
      summary: "A file's bytes, as an attachment",
      answer: fileAnswer({ "application/octet-stream": v.string() }, "The file, its stored type"),
      errors: ["NOT_FOUND", "BAD_REQUEST"],
    }),
    uploadFile: route({
      method: "POST",
      path: "shards/:key",
      summary: "Stores the body as a new file of the shard (its Content-Type kept)",
      description:
        "No size limit but R2's; unreferenced, it is collected like any upload (docs/storage.md).",
      body: rawBody({ "application/octet-stream": v.string() }, "The file's bytes"),
      answer: v.object({ storageId: v.string() }),
      status: 201,
      errors: ["NOT_FOUND", "BAD_REQUEST"],
      audit: "file.upload",
    }),
    deleteFile: route({
      method: "DELETE",
      path: "shards/:key/:id",
      summary: "Deletes a file: its metadata and its bytes",
      answer: v.object({ deleted: v.literal(true) }),
      errors: ["NOT_FOUND"],
      audit: "file.delete",
    }),
  },
});
