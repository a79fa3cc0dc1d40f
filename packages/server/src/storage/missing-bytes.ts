import { SvcError } from "../errors/svc-error.ts";

/**
 * The error for a file the shard records as stored whose bytes are gone
 * from R2 (deleted outside svc, or lost to a race between two uses of one
 * upload URL): a `CONFLICT` that names the file and what to do, so a
 * backup that meets one fails with a reason an operator can act on, not
 * an internal error.
 *
 * @example if (object === null) throw missingBytes(row.id);
 */
export function missingBytes(storageId: string): SvcError {
  return new SvcError(
    "CONFLICT",
    `File ${storageId} is recorded as stored, but its bytes are missing from R2: ` +
      "delete the file, or put its bytes back, then try again.",
    { data: { reason: "missing_bytes", storageId } },
  );
}
