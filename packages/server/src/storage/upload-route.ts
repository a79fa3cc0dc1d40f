import { unwrap } from "../errors/outcome.ts";
import { SvcError } from "../errors/svc-error.ts";
import { jsonResponse } from "../http/responses.ts";
import type { StorageEndpoint } from "./endpoint.ts";
import { verifyGrant } from "./grant.ts";
import { mediaType, refusedUpload, typeAllowed } from "./limits.ts";
import { type ResolvedStorageOptions, storageBucket, storageSecret } from "./options.ts";
import { objectKey } from "./paths.ts";
import { putStream, putUnsized } from "./put-stream.ts";

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
 * the token (forged or expired: `FORBIDDEN`), the declared type against the
 * URL's allow-list (`BAD_REQUEST`, reason `content_type`), the declared
 * length against its limit (`PAYLOAD_TOO_LARGE`); then the shard takes the
 * URL's one use (`CONFLICT`, reason `used`), the body streams into R2 (a
 * body without `Content-Length` in multipart parts, refused as soon as it
 * passes the limit) and the shard records the file. Answers `{ storageId }`.
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
  const contentType = mediaType(request.headers.get("content-type")) || "application/octet-stream";
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
  unwrap(await stub.storageClaim(grant.id));
  const key = objectKey(grant.shardKey, grant.id);
  let stored: Awaited<ReturnType<typeof putStream>>;
  try {
    const body = request.body ?? EMPTY();
    stored =
      length === null
        ? await putUnsized(bucket, key, body, grant.maxBytes, contentType)
        : await putStream(bucket, key, body, length, contentType);
  } catch (error) {
    await stub.storageAbort(grant.id);
    throw error;
  }
  const completed = await stub.storageComplete(grant.id, stored, contentType);
  if (!completed.ok) {
    await bucket.delete(key);
    unwrap(completed);
  }
  return jsonResponse({ storageId: grant.id });
}
