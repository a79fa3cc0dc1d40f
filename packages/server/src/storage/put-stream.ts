import { putInParts } from "../backups/r2.ts";
import { hexOf } from "../values/hex.ts";
import { refusedUpload } from "./limits.ts";

/**
 * What was stored: the byte count and the SHA-256 (hex) of exactly those
 * bytes, or `null` where the upload did not hash them (computed on first
 * need, {@link digestObject}).
 */
export interface StoredBytes {
  size: number;
  sha256: string | null;
}

function sha256Stream(): DigestStream {
  return new (crypto as unknown as { DigestStream: typeof DigestStream }).DigestStream("SHA-256");
}

/** The answer to a body that was not the `length` bytes its `Content-Length` declared. */
const lengthMismatch = (length: number, cause?: unknown) =>
  refusedUpload(
    "BAD_REQUEST",
    "length_mismatch",
    `The body did not arrive as the ${length} bytes its Content-Length declared.`,
    cause,
  );

/** R2 stores an object only where its key has none yet (R2's `If-None-Match: *`). */
const ABSENT: R2Conditional = { etagDoesNotMatch: "*" };

/**
 * Pipes the body through a `FixedLengthStream` of `length` (R2 needs a known
 * length) into R2, under `onlyIf` when given, and answers what `put`
 * answered. A body that was not `length` bytes is `length_mismatch`; what a
 * conditional put stored of it is removed (the key was this body's alone).
 */
async function putFixed(
  bucket: R2Bucket,
  key: string,
  body: ReadableStream<Uint8Array>,
  length: number,
  contentType: string,
  options: { beside?: Promise<unknown>; onlyIf?: R2Conditional } = {},
): Promise<R2Object | null> {
  const fixed = new FixedLengthStream(length);
  const [put, ...others] = await Promise.allSettled([
    bucket.put(key, fixed.readable, {
      httpMetadata: { contentType },
      ...(options.onlyIf ? { onlyIf: options.onlyIf } : {}),
    }),
    body.pipeTo(fixed.writable),
    options.beside,
  ]);
  const failed = [put, ...others].find((settled) => settled.status === "rejected");
  if (put.status === "fulfilled" && failed === undefined) return put.value;
  if (put.status === "fulfilled" && put.value !== null && options.onlyIf) await bucket.delete(key);
  throw lengthMismatch(length, failed?.reason);
}

/**
 * Streams a file's `body` into R2 under `key` without holding it in memory
 * and without hashing it, only where no object has that key yet: a file's
 * bytes are written once, so a reused upload URL can never overwrite the
 * file it stored (answered `null`, nothing stored). A body whose length the
 * runtime knows (a request's own body: its `Content-Length`, which the HTTP
 * server holds it to) goes to R2 as it is, the way a hand-written route
 * stores it; R2 refuses any other stream untouched, and that one is piped
 * through a `FixedLengthStream` of the declared `length` (that pipe, taken
 * by every upload before, was half of svc's gap to the hand-written route
 * in the storage bench: the gap fell from 1.27 to 0.66 ms of worker CPU per
 * MiB). An upload's SHA-256 is computed on first need instead
 * ({@link digestObject}): hashing on the way in cost 5–6 ms of worker CPU
 * per MiB (docs/storage.md "Costs"). A body longer or shorter than
 * `length`, or one that breaks off, is answered `BAD_REQUEST` (`data.reason`
 * `length_mismatch`) with nothing kept.
 *
 * @example const stored = await putStream(bucket, key, request.body, length, "image/png");
 */
export async function putStream(
  bucket: R2Bucket,
  key: string,
  body: ReadableStream<Uint8Array>,
  length: number,
  contentType: string,
): Promise<StoredBytes | null> {
  let object: R2Object | null;
  try {
    object = await bucket.put(key, body, { httpMetadata: { contentType }, onlyIf: ABSENT });
  } catch (error) {
    // Refused before reading (a stream of unknown length, made in JavaScript): piped instead.
    if (!(error instanceof TypeError) || body.locked) throw lengthMismatch(length, error);
    object = await putFixed(bucket, key, body, length, contentType, { onlyIf: ABSENT });
  }
  if (object === null) return null;
  if (object.size !== length) {
    // Stored only where nothing was: these bytes are this body's alone.
    await bucket.delete(key);
    throw lengthMismatch(length);
  }
  return { size: length, sha256: null };
}

/**
 * {@link putStream} that also hashes the bytes on their way (the body teed
 * into a `DigestStream`): for a restore, which must check the bytes against
 * the SHA-256 its backup carries before it keeps them.
 *
 * @example const { sha256 } = await putStreamHashed(bucket, key, pipe.readable, row.size, row.contentType);
 */
export async function putStreamHashed(
  bucket: R2Bucket,
  key: string,
  body: ReadableStream<Uint8Array>,
  length: number,
  contentType: string,
): Promise<StoredBytes & { sha256: string }> {
  const digest = sha256Stream();
  const [toDigest, toStore] = body.tee();
  await putFixed(bucket, key, toStore, length, contentType, { beside: toDigest.pipeTo(digest) });
  return { size: length, sha256: hexOf(await digest.digest) };
}

/**
 * The SHA-256 (hex) of an object's bytes as R2 holds them, streamed through
 * a `DigestStream` (bounded memory), or `null` where the object is gone.
 *
 * @example const sha256 = await digestObject(bucket, files.key(id));
 */
export async function digestObject(bucket: R2Bucket, key: string): Promise<string | null> {
  const object = await bucket.get(key);
  if (object === null) return null;
  const digest = sha256Stream();
  await object.body.pipeTo(digest);
  return hexOf(await digest.digest);
}

/**
 * Stores bytes already in memory (`ctx.storage.store`): one put of the whole
 * `Blob` and one digest of it, no stream to feed.
 *
 * @example const stored = await putBlob(bucket, key, new Blob(["hi"]), "text/plain");
 */
export async function putBlob(
  bucket: R2Bucket,
  key: string,
  blob: Blob,
  contentType: string,
): Promise<StoredBytes> {
  const bytes = await blob.arrayBuffer();
  await bucket.put(key, bytes, { httpMetadata: { contentType } });
  return { size: bytes.byteLength, sha256: hexOf(await crypto.subtle.digest("SHA-256", bytes)) };
}

/**
 * Streams a body of unknown length (no `Content-Length`: a streamed request)
 * into R2 in multipart parts, one part's buffer at a time (~8 MiB), counting
 * its bytes (its SHA-256 is computed on first need, as for {@link putStream}). Past `maxBytes` the upload is aborted, nothing is kept, and
 * the answer is `PAYLOAD_TOO_LARGE` (`data.reason` `too_large`).
 *
 * @example const stored = await putUnsized(bucket, key, request.body, grant.maxBytes, "text/csv");
 */
export async function putUnsized(
  bucket: R2Bucket,
  key: string,
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  contentType: string,
): Promise<StoredBytes> {
  let size = 0;
  const counted = body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength;
        if (size > maxBytes)
          throw refusedUpload(
            "PAYLOAD_TOO_LARGE",
            "too_large",
            `The file is over the ${maxBytes} bytes this upload URL accepts.`,
          );
        controller.enqueue(chunk);
      },
    }),
  );
  await putInParts(bucket, key, counted, { httpMetadata: { contentType } });
  return { size, sha256: null };
}
