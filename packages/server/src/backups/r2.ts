import { SvcError } from "../errors/svc-error.ts";
import type { BackupHeader } from "./format.ts";
import { chunksOf } from "./lines.ts";

/** Where backups live in the bucket: `svc-backups/<shard key, URI-encoded>/<ISO time>.ndjson`. */
export const BACKUP_PREFIX = "svc-backups/";
/**
 * Size of every multipart part but the last. R2 wants parts of equal size
 * (at least 5 MiB); a backup streams through one part's buffer, so memory
 * stays at ~8 MiB whatever the shard holds.
 */
const PART_BYTES = 8 * 1024 * 1024;

/** One backup in the bucket, as the admin API lists it. */
export interface BackupInfo {
  /** The object key; what `POST …/shards/:key/restore { backup }` takes. */
  id: string;
  shardKey: string;
  /** ISO-8601 time the backup was taken. */
  createdAt: string;
  sizeBytes: number;
  documents: number;
  schemaVersion: string | null;
  svcVersion: string;
}

/** The folder of one shard's backups. */
export function shardBackupPrefix(shardKey: string): string {
  return `${BACKUP_PREFIX}${encodeURIComponent(shardKey)}/`;
}

/** The object key of a backup of `shardKey` taken at `createdAt` (ISO-8601; keys sort by time). */
export function backupObjectKey(shardKey: string, createdAt: string): string {
  return `${shardBackupPrefix(shardKey)}${createdAt}.ndjson`;
}

/**
 * The R2 bucket bound as `binding`, or a clear configuration error naming the
 * option that chose it (`option`).
 *
 * @example const bucket = bucketOf(env, "BACKUPS");
 */
export function bucketOf(env: unknown, binding: string, option = "backups.bucket"): R2Bucket {
  const bucket = (env as Record<string, unknown> | undefined)?.[binding] as R2Bucket | undefined;
  if (bucket === undefined || typeof bucket.createMultipartUpload !== "function") {
    throw new Error(
      `svc: ${option} names ${JSON.stringify(binding)}, but env has no R2 bucket binding of that name (add it under r2_buckets in wrangler.jsonc)`,
    );
  }
  return bucket;
}

function metadataOf(header: BackupHeader, documents: number): Record<string, string> {
  return {
    shardKey: header.shardKey,
    createdAt: header.createdAt,
    documents: String(documents),
    schemaVersion: header.schemaVersion ?? "",
    svcVersion: header.svcVersion,
  };
}

/** Reads a listed object back into a {@link BackupInfo}. */
export function backupInfoOf(object: R2Object): BackupInfo {
  const meta = object.customMetadata ?? {};
  return {
    id: object.key,
    shardKey: meta.shardKey ?? "",
    createdAt: meta.createdAt ?? object.uploaded.toISOString(),
    sizeBytes: object.size,
    documents: Number(meta.documents ?? 0),
    schemaVersion: meta.schemaVersion ? meta.schemaVersion : null,
    svcVersion: meta.svcVersion ?? "",
  };
}

/**
 * Uploads a backup stream as one object in equal-sized multipart parts (a
 * single put when it fits in one), aborting the upload if the stream fails,
 * so a bucket never holds half a backup under a backup's name.
 */
export async function uploadBackup(
  bucket: R2Bucket,
  header: BackupHeader,
  body: ReadableStream<Uint8Array>,
): Promise<BackupInfo> {
  const key = backupObjectKey(header.shardKey, header.createdAt);
  const documents = Object.values(header.tables).reduce((sum, n) => sum + n, 0);
  const object = await putInParts(bucket, key, body, {
    customMetadata: metadataOf(header, documents),
    httpMetadata: { contentType: "application/x-ndjson" },
  });
  return backupInfoOf(object);
}

/**
 * Puts a stream of unknown length into R2 as one object: equal-sized
 * multipart parts through one part's buffer (~8 MiB of memory whatever the
 * size), or a single put when it fits in one part. A failing stream aborts
 * the upload, so nothing is left under `key`.
 *
 * @example const object = await putInParts(bucket, key, body, { httpMetadata: { contentType } });
 */
export async function putInParts(
  bucket: R2Bucket,
  key: string,
  body: ReadableStream<Uint8Array>,
  options: R2MultipartOptions,
): Promise<R2Object> {
  const buffer = new Uint8Array(PART_BYTES);
  let filled = 0;
  let upload: R2MultipartUpload | undefined;
  const parts: R2UploadedPart[] = [];
  try {
    for await (const chunk of chunksOf(body)) {
      let offset = 0;
      while (offset < chunk.byteLength) {
        const n = Math.min(PART_BYTES - filled, chunk.byteLength - offset);
        buffer.set(chunk.subarray(offset, offset + n), filled);
        filled += n;
        offset += n;
        if (filled === PART_BYTES) {
          upload ??= await bucket.createMultipartUpload(key, options);
          parts.push(await upload.uploadPart(parts.length + 1, buffer.slice()));
          filled = 0;
        }
      }
    }
    if (upload === undefined) return await bucket.put(key, buffer.slice(0, filled), options);
    if (filled > 0) parts.push(await upload.uploadPart(parts.length + 1, buffer.slice(0, filled)));
    return await upload.complete(parts);
  } catch (error) {
    await upload?.abort().catch(() => undefined);
    throw error;
  }
}

/** Deletes all but the `keep` newest backups of a shard; answers how many went. */
export async function pruneBackups(
  bucket: R2Bucket,
  shardKey: string,
  keep: number,
): Promise<number> {
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix: shardBackupPrefix(shardKey), cursor });
    keys.push(...page.objects.map((object) => object.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor !== undefined);
  const old = keys.sort().reverse().slice(keep);
  if (old.length > 0) await bucket.delete(old);
  return old.length;
}

/** A page of backups of one shard or of all, in key order (by shard, then oldest first). */
export async function listBackups(
  bucket: R2Bucket,
  options: { shardKey: string | null; cursor: string | null; limit: number },
): Promise<{ backups: BackupInfo[]; nextCursor: string | null }> {
  const page = await bucket.list({
    prefix: options.shardKey === null ? BACKUP_PREFIX : shardBackupPrefix(options.shardKey),
    limit: options.limit,
    ...(options.cursor === null ? {} : { cursor: options.cursor }),
    include: ["customMetadata"],
  });
  return {
    backups: page.objects.map(backupInfoOf),
    nextCursor: page.truncated ? page.cursor : null,
  };
}

/** The body of a listed backup; `NOT_FOUND` when `id` is not one. */
export async function openBackup(
  bucket: R2Bucket,
  id: string,
): Promise<ReadableStream<Uint8Array>> {
  const object = id.startsWith(BACKUP_PREFIX) ? await bucket.get(id) : null;
  if (object === null) throw new SvcError("NOT_FOUND", "Not found.");
  return object.body;
}
