import { putInParts } from "../backups/r2.ts";
import { hexOf } from "../values/hex.ts";
import { refusedUpload } from "./limits.ts";

/** What was stored: the byte count and the SHA-256 (hex) of exactly those bytes. */
export interface StoredBytes {
  size: number;
  sha256: string;
}

function sha256Stream(): DigestStream {
  return new (crypto as unknown as { DigestStream: typeof DigestStream }).DigestStream("SHA-256");
}

/**
 * Streams `body` into R2 under `key` without holding it in memory: the body
 * is teed, one branch piped into a SHA-256 digest, the other through a
 * `FixedLengthStream` of the declared `length` (R2 needs a known length)
 * into R2. Both pipes run inside the runtime, with no JavaScript per chunk
 * (half the CPU per MiB of a JavaScript pump, BENCHMARKS.md section 15).
 * A body longer or shorter than `length` fails the put and is answered
 * `BAD_REQUEST` (`data.reason` `length_mismatch`); the caller removes
 * whatever R2 kept.
 *
 * @example const { size, sha256 } = await putStream(bucket, key, request.body, length, "image/png");
 */
export async function putStream(
  bucket: R2Bucket,
  key: string,
  body: ReadableStream<Uint8Array>,
  length: number,
  contentType: string,
): Promise<StoredBytes> {
  const digest = sha256Stream();
  const fixed = new FixedLengthStream(length);
  const [toDigest, toStore] = body.tee();
  const hashing = toDigest.pipeTo(digest);
  const storing = toStore.pipeTo(fixed.writable);
  try {
    await Promise.all([
      bucket.put(key, fixed.readable, { httpMetadata: { contentType } }),
      storing,
      hashing,
    ]);
  } catch (error) {
    void hashing.catch(() => {});
    void storing.catch(() => {});
    throw refusedUpload(
      "BAD_REQUEST",
      "length_mismatch",
      `The body did not arrive as the ${length} bytes its Content-Length declared.`,
      error,
    );
  }
  return { size: length, sha256: hexOf(await digest.digest) };
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
 * into R2 in multipart parts, one part's buffer at a time (~8 MiB), hashing
 * as it goes. Past `maxBytes` the upload is aborted, nothing is kept, and
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
  const digest = sha256Stream();
  const hashing = digest.getWriter();
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
        hashing.write(chunk).catch(() => {});
        controller.enqueue(chunk);
      },
    }),
  );
  await putInParts(bucket, key, counted, { httpMetadata: { contentType } });
  await hashing.close();
  return { size, sha256: hexOf(await digest.digest) };
}
