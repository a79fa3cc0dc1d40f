import type { TableAccess } from "../db/database.ts";
import type { DatabaseReader } from "../db/types.ts";
import { SvcError } from "../errors/svc-error.ts";
import type { ProcedureKind } from "../model/call-meta.ts";
import { isIdOf, newId } from "../values/ids.ts";
import type { Id } from "../values/index.ts";
import type { FileStore } from "./file-store.ts";
import { signGrant } from "./grant.ts";
import {
  bounded,
  checkedTypes,
  DEFAULT_DOWNLOAD_URL_MS,
  DEFAULT_MAX_UPLOAD_BYTES,
  DEFAULT_UPLOAD_URL_MS,
  MAX_UPLOAD_BYTES,
  MAX_URL_MS,
  uploadType,
} from "./limits.ts";
import { downloadPath, uploadPath } from "./paths.ts";
import { putBlob } from "./put-stream.ts";
import { referencesTo, STORAGE_ID_TABLE } from "./references.ts";
import {
  type FileMetadata,
  type FileRow,
  fileRow,
  insertPending,
  metadataOf,
  STORAGE_TABLE,
} from "./table.ts";

/** Documents that may hold a file are looked at up to this many when deciding access. */
const REFERENCES_CHECKED = 20;

/** Options of `ctx.storage.generateUploadUrl`. */
export interface UploadUrlOptions {
  /** Largest accepted body in bytes. @default 10485760 (10 MiB); at most 4 GiB */
  maxBytes?: number;
  /** Accepted media types, exact or `type/*` (`["image/*"]`). @default any type */
  contentTypes?: string[];
  /** How long the URL may be used. @default 600000 (10 minutes) */
  expiresInMs?: number;
}

/** Options of `ctx.storage.getUrl`. */
export interface DownloadUrlOptions {
  /** How long the URL works. @default 3600000 (1 hour); at most 7 days */
  expiresInMs?: number;
  /** The file name a browser saves it under (`Content-Disposition`). */
  filename?: string;
}

/**
 * `ctx.storage` in queries: reading what the caller may read (docs/storage.md:
 * a file is as readable as a document that references it, or, while no
 * document does, by the user who uploaded it). Anything else is `null`, as
 * for a file that does not exist.
 *
 * @example
 * ```ts
 * const url = await ctx.storage.getUrl(message.attachment);
 * ```
 */
export interface StorageReader {
  /** A signed download URL (root-relative) the worker serves, or `null`. */
  getUrl(storageId: Id<"_storage">, options?: DownloadUrlOptions): Promise<string | null>;
  /** Size, type, SHA-256 and time of a stored file, or `null`. */
  getMetadata(storageId: Id<"_storage">): Promise<FileMetadata | null>;
}

/**
 * `ctx.storage` in mutations: also issues upload URLs and deletes files,
 * both inside the mutation's transaction (a rolled-back mutation issued
 * nothing and deleted nothing).
 *
 * @example
 * ```ts
 * export const uploadUrl = mutation.handler((ctx) => ctx.storage.generateUploadUrl({ contentTypes: ["image/*"] }));
 * ```
 */
export interface StorageWriter extends StorageReader {
  /**
   * A short-lived, single-use, signed URL the client `POST`s one file to
   * (its `Content-Type` and `Content-Length` headers required); the upload
   * answers `{ storageId }`.
   */
  generateUploadUrl(options?: UploadUrlOptions): Promise<string>;
  /** Deletes a file: its metadata now, its bytes once the transaction commits. */
  delete(storageId: Id<"_storage">): Promise<void>;
}

/** What `ctx.storage.store` accepts. */
export type StorableBody = Blob | ArrayBuffer | ArrayBufferView | string;

/**
 * `ctx.storage` in actions: also stores bytes the action has and reads
 * bytes back. Deletes take effect at once (an action has no transaction).
 *
 * @example
 * ```ts
 * const storageId = await ctx.storage.store(new Blob([csv], { type: "text/csv" }));
 * ```
 */
export interface StorageActionWriter extends StorageWriter {
  /** Stores `body` (a `Blob` keeps its type unless `contentType` is given; one media type, else `BAD_REQUEST`). */
  store(body: StorableBody, options?: { contentType?: string }): Promise<Id<"_storage">>;
  /** The file's bytes as a stream, or `null` (the same access rule as `getUrl`). */
  get(storageId: Id<"_storage">): Promise<ReadableStream<Uint8Array> | null>;
}

/** Who calls and how, for one `ctx.storage`. */
export interface StorageCall {
  kind: ProcedureKind;
  /** The caller's user id (`ctx.auth.userId`). */
  userId: string | null;
  /** RLS off (`.bypassRls()`): every file is readable. */
  bypassRls: boolean;
  /** The caller's RLS-filtered reader (the documents that reference a file decide). */
  reader: () => DatabaseReader;
  /** The call's table access: reads make live queries re-run; writes sweep after commit. */
  access: TableAccess | undefined;
}

function checkId(storageId: unknown): string {
  if (typeof storageId !== "string" || !isIdOf(STORAGE_ID_TABLE, storageId))
    throw new SvcError("BAD_REQUEST", `${JSON.stringify(storageId)} is not a storage id.`);
  return storageId;
}

/**
 * The ready file `storageId` if the caller may read it, else `null`.
 * Referencing documents are read through the caller's RLS reader, so a
 * policy decides exactly as it does for the document.
 */
async function readable(files: FileStore, call: StorageCall, id: string): Promise<FileRow | null> {
  call.access?.reads.add(STORAGE_TABLE);
  for (const probe of files.probes) call.access?.reads.add(probe.table);
  const row = fileRow(files.sql, id);
  if (row?.state !== "ready") return null;
  if (call.bypassRls) return row;
  const references = referencesTo(files.sql, files.probes, id, REFERENCES_CHECKED);
  if (references.length === 0)
    return row.uploader !== null && row.uploader === call.userId ? row : null;
  const reader = call.reader();
  for (const reference of references) if ((await reader.get(reference.id)) !== null) return row;
  return null;
}

function bytesOf(body: StorableBody): Blob {
  if (body instanceof Blob) return body;
  return new Blob([body as ArrayBuffer | string]);
}

/**
 * Builds `ctx.storage` for one call: a {@link StorageReader} in queries and
 * streams, a {@link StorageWriter} in mutations, a
 * {@link StorageActionWriter} in actions.
 *
 * @example ctx.storage = storageContext(files, { kind, userId, bypassRls, reader, access });
 */
export function storageContext(
  files: FileStore,
  call: StorageCall,
): StorageReader | StorageWriter | StorageActionWriter {
  const reader: StorageReader = {
    async getUrl(storageId, options = {}) {
      const row = await readable(files, call, checkId(storageId));
      if (row === null) return null;
      const ttl = bounded(options.expiresInMs, DEFAULT_DOWNLOAD_URL_MS, MAX_URL_MS, "expiresInMs");
      const token = await signGrant(files.secret(), {
        kind: "download",
        shardKey: files.shardKey,
        id: row.id,
        expiresAt: files.now() + ttl,
        filename: options.filename ?? null,
      });
      return downloadPath(row.id, token);
    },
    async getMetadata(storageId) {
      const row = await readable(files, call, checkId(storageId));
      return row === null ? null : metadataOf(row, await files.sha256Of(row));
    },
  };
  if (call.kind !== "mutation" && call.kind !== "action") return reader;
  const writer: StorageWriter = {
    ...reader,
    async generateUploadUrl(options = {}) {
      const maxBytes = bounded(
        options.maxBytes,
        DEFAULT_MAX_UPLOAD_BYTES,
        MAX_UPLOAD_BYTES,
        "maxBytes",
      );
      const contentTypes = checkedTypes(options.contentTypes);
      const ttl = bounded(options.expiresInMs, DEFAULT_UPLOAD_URL_MS, MAX_URL_MS, "expiresInMs");
      const secret = files.secret();
      const id = newId(STORAGE_ID_TABLE);
      const expiresAt = files.now() + ttl;
      const record = async () =>
        insertPending(files.sql, { id, now: files.now(), expiresAt, uploader: call.userId });
      if (call.kind === "action") await files.exclusive(record);
      else await record();
      call.access?.writes.add(STORAGE_TABLE);
      const token = await signGrant(secret, {
        kind: "upload",
        shardKey: files.shardKey,
        id,
        expiresAt,
        maxBytes,
        contentTypes,
      });
      return uploadPath(token);
    },
    async delete(storageId) {
      const id = checkId(storageId);
      if (call.kind === "action") {
        if (!(await files.deleteNow(id))) throw new SvcError("NOT_FOUND", "No such file.");
        return;
      }
      if (!files.markDeleted(id)) throw new SvcError("NOT_FOUND", "No such file.");
      call.access?.writes.add(STORAGE_TABLE);
    },
  };
  if (call.kind !== "action") return writer;
  const action: StorageActionWriter = {
    ...writer,
    async store(body, options = {}) {
      const blob = bytesOf(body);
      const contentType = uploadType(options.contentType ?? blob.type);
      const bucket = files.bucket();
      const id = newId(STORAGE_ID_TABLE);
      const stored = await putBlob(bucket, files.key(id), blob, contentType);
      await files.stored(id, stored, contentType, call.userId);
      return id as Id<"_storage">;
    },
    async get(storageId) {
      const row = await readable(files, call, checkId(storageId));
      if (row === null) return null;
      const object = await files.bucket().get(files.key(row.id));
      return object?.body ?? null;
    },
  };
  return action;
}
