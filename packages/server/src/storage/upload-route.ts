import { type Outcome, unwrap } from "../errors/outcome.ts";
import { SvcError } from "../errors/svc-error.ts";
import { jsonResponse } from "../http/responses.ts";
import type { StorageEndpoint } from "./endpoint.ts";
import { type UploadGrant, verifyGrant } from "./grant.ts";
import { refusedUpload, typeAllowed, uploadType, usedUrl } from "./limits.ts";
import { type ResolvedStorageOptions, storageBucket, storageSecret } from "./options.ts";
import { objectKey } from "./paths.ts";
import { putStream, putUnsized, type StoredBytes } from "./put-stream.ts";

const EMPTY = () => new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });

/** The declared `Content-Length`, or `null` for a streamed body (then it is counted as it comes). */
function declaredLength(request: Request): number | null {
  const header = request.headers.get("content-length");
  if (header === null) return null;
  if (!/^\d{1,15}$/.test(header))
    throw refusedUpload("BAD_REQUEST", "bad_length", "The Content-Length header is not a number.");
  return Number(header);
}

/**
 * `POST /_svc/storage/upload?token=…`: stores one file through an upload URL
 * from `ctx.storage.generateUploadUrl`. In order, before anything is stored:
 * the token (forged or expired: `FORBIDDEN`), the declared type, one media
 * type in the URL's allow-list (`BAD_REQUEST`, reason `content_type`), the declared
 * length against its limit (`PAYLOAD_TOO_LARGE`). A body with
 * `Content-Length` then streams into R2 only where its file has no bytes
 * yet, and one shard call takes the URL's one use and records the file; a
 * used URL (`CONFLICT`, reason `used`) keeps nothing of the body. A body
 * without it has the URL's use taken first, then goes to R2 in multipart
 * parts, refused as soon as it passes the limit. Answers `{ storageId }`.
 *
 * @example
 * ```ts
 * await fetch(uploadUrl, { method: "POST", headers: { "content-type": file.type }, body: file });
 * ```
 */
export async function handleUpload(
  request: Request,
  env: unknown,
  url: URL,
  shard: (shardKey: string) => StorageEndpoint,
  options: ResolvedStorageOptions,
): Promise<Response> {
  if (request.method !== "POST")
    throw new SvcError("METHOD_NOT_ALLOWED", "POST only.", { headers: { allow: "POST" } });
  const secret = storageSecret(env, options);
  const bucket = storageBucket(env, options);
  const grant = await verifyGrant(secret, url.searchParams.get("token"), "upload", Date.now());
  const contentType = uploadType(request.headers.get("content-type"));
  if (!typeAllowed(contentType, grant.contentTypes))
    throw refusedUpload(
      "BAD_REQUEST",
      "content_type",
      `This upload URL does not accept ${contentType} (accepted: ${grant.contentTypes?.join(", ")}).`,
    );
  const length = declaredLength(request);
  if (length !== null && length > grant.maxBytes)
    throw refusedUpload(
      "PAYLOAD_TOO_LARGE",
      "too_large",
      `The file is ${length} bytes; this upload URL accepts at most ${grant.maxBytes}.`,
    );
  const stub = shard(grant.shardKey);
  const key = objectKey(grant.shardKey, grant.id);
  const body = request.body ?? EMPTY();
  if (length === null) await storeStreamed(stub, bucket, key, grant, body, contentType);
  else {
    const stored = await putStream(bucket, key, body, length, contentType);
    // Bytes are there already: this URL stored its file before.
    if (stored === null) throw usedUrl();
    await recordedOrRemoved(bucket, key, await stub.storageCommit(grant.id, stored, contentType));
  }
  return jsonResponse({ storageId: grant.id });
}

/** A body of unknown length: its URL's use is taken, its parts stored, the file recorded. */
async function storeStreamed(
  stub: StorageEndpoint,
  bucket: R2Bucket,
  key: string,
  grant: UploadGrant,
  body: ReadableStream<Uint8Array>,
  contentType: string,
): Promise<void> {
  unwrap(await stub.storageClaim(grant.id));
  let stored: StoredBytes;
  try {
    stored = await putUnsized(bucket, key, body, grant.maxBytes, contentType);
  } catch (error) {
    await stub.storageAbort(grant.id);
    throw error;
  }
  await recordedOrRemoved(bucket, key, await stub.storageComplete(grant.id, stored, contentType));
}

/**
 * The shard's answer on bytes already in R2: a refusal (the URL was used,
 * the upload abandoned) removes them, since no file will ever name them,
 * then throws the refusal. Client and operator uploads both end here.
 *
 * @example await recordedOrRemoved(bucket, key, await stub.storageComplete(id, stored, type));
 */
export async function recordedOrRemoved(
  bucket: R2Bucket,
  key: string,
  recorded: Outcome<null>,
): Promise<void> {
  if (recorded.ok) return;
  await bucket.delete(key);
  unwrap(recorded);
}
