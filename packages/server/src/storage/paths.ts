/** Everything storage serves sits under this prefix of the worker. */
export const STORAGE_PREFIX = "/_svc/storage/";
/** `POST` here with an upload URL's token stores one file. */
export const UPLOAD_PATH = "/_svc/storage/upload";
/** `GET /_svc/storage/files/<storage id>?token=…` reads a file. */
export const FILES_PREFIX = "/_svc/storage/files/";

/**
 * The R2 key of a file: `svc-files/<shard key, URI-encoded>/<storage id>`.
 *
 * @example objectKey("team-1", "_storage_…") // "svc-files/team-1/_storage_…"
 */
export function objectKey(shardKey: string, storageId: string): string {
  return `svc-files/${encodeURIComponent(shardKey)}/${storageId}`;
}

/**
 * The path of an upload URL (root-relative: clients resolve it against the
 * app's origin, as `@svc/client`'s `uploadFile` does).
 *
 * @example uploadPath(token) // "/_svc/storage/upload?token=…"
 */
export function uploadPath(token: string): string {
  return `${UPLOAD_PATH}?token=${token}`;
}

/**
 * The path of a download URL.
 *
 * @example downloadPath("_storage_…", token) // "/_svc/storage/files/_storage_…?token=…"
 */
export function downloadPath(storageId: string, token: string): string {
  return `${FILES_PREFIX}${storageId}?token=${token}`;
}
