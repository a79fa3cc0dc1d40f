import type { Outcome } from "../errors/outcome.ts";
import type { FileAdminView } from "./admin-contract.ts";
import type { StoredBytes } from "./put-stream.ts";

/**
 * The shard methods the worker's storage routes call over JS RPC. Only the
 * worker holds shard stubs, and it calls these after checking a signed
 * upload URL, so no client reaches them directly.
 */
export interface StorageEndpoint {
  /**
   * Takes an upload URL's one use before its bytes are stored (a body of
   * unknown length; `CONFLICT`, reason `used`, the second time).
   */
  storageClaim(storageId: string): Promise<Outcome<null>>;
  /** Records the bytes an upload stored; the file is ready. */
  storageComplete(
    storageId: string,
    stored: StoredBytes,
    contentType: string,
  ): Promise<Outcome<null>>;
  /**
   * Takes an upload URL's one use and records the bytes already stored, in
   * one call (`CONFLICT`, reason `used`, when the URL was used before).
   */
  storageCommit(
    storageId: string,
    stored: StoredBytes,
    contentType: string,
  ): Promise<Outcome<null>>;
  /** Gives up a failed upload: its row and any bytes R2 kept are removed. */
  storageAbort(storageId: string): Promise<void>;
  /** Collects unreferenced old uploads now; answers how many were deleted. */
  storageCollect(): Promise<Outcome<number>>;
  /** The operator's page of files (every state, with referencing documents). */
  storageList(
    cursor: string | null,
    limit: number,
  ): Promise<Outcome<{ files: FileAdminView[]; cursor: string | null }>>;
  /** Starts the operator's upload of a file with this id (no URL needed). */
  storageReserve(storageId: string): Promise<Outcome<null>>;
  /** Deletes a file now (bytes and metadata); `NOT_FOUND` when there is none. */
  storageDelete(storageId: string): Promise<Outcome<null>>;
}
