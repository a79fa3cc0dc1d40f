import { refusedUpload } from "./limits.ts";

/** What was stored: the byte count and the SHA-256 (hex) of exactly those bytes. */
export interface StoredBytes {
  size: number;
  sha256: string;
}

function hex(buffer: ArrayBuffer): string {
  return Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * Streams `body` into R2 under `key` without holding it in memory: the bytes
 * pass through a SHA-256 digest and a `FixedLengthStream` of the declared
 * `length` (R2 needs a known length), one chunk at a time. A body longer or
 * shorter than `length` fails the put and is answered `BAD_REQUEST`
 * (`data.reason` `length_mismatch`); the caller removes whatever R2 kept.
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
  const digest = new (crypto as unknown as { DigestStream: typeof DigestStream }).DigestStream(
    "SHA-256",
  );
  const digestWriter = digest.getWriter();
  let size = 0;
  const hashing = new TransformStream<Uint8Array, Uint8Array>({
    async transform(chunk, controller) {
      size += chunk.byteLength;
      if (size > length) throw new Error("the body is longer than its Content-Length");
      await digestWriter.write(chunk);
      controller.enqueue(chunk);
    },
    async flush() {
      await digestWriter.close();
    },
  });
  const fixed = new FixedLengthStream(length);
  const piping = body.pipeThrough(hashing).pipeTo(fixed.writable);
  try {
    await Promise.all([bucket.put(key, fixed.readable, { httpMetadata: { contentType } }), piping]);
  } catch (error) {
    void piping.catch(() => {});
    throw refusedUpload(
      "BAD_REQUEST",
      "length_mismatch",
      `The body did not arrive as the ${length} bytes its Content-Length declared.`,
      error,
    );
  }
  if (size !== length)
    throw refusedUpload(
      "BAD_REQUEST",
      "length_mismatch",
      `The body was ${size} bytes, not ${length}.`,
    );
  return { size, sha256: hex(await digest.digest) };
}
