/**
 * Sending a file to the admin API with progress: `fetch` cannot report how
 * much of a request body has gone out, `XMLHttpRequest` can. The admin token
 * goes in the `Authorization` header as with every other admin call; a
 * refusal becomes the same {@link ApiError} the rest of the dashboard shows.
 */
import { ApiError, errorFromResponse } from "../api/client.ts";

/** How far an upload has gone: bytes sent of the file's size. */
export interface UploadProgress {
  loaded: number;
  total: number;
}

/**
 * POSTs `file` to `path` (its own type as `Content-Type`) with the admin
 * token, calling `onProgress` as the bytes go out, and resolves with the
 * JSON answer. Aborting `signal` cancels the upload (`AbortError`).
 *
 * @example
 * ```ts
 * const { storageId } = await uploadWithProgress(uploadPath("room-1"), file, token, {
 *   onProgress: ({ loaded, total }) => setShare(loaded / total),
 * });
 * ```
 */
export function uploadWithProgress(
  path: string,
  file: Blob,
  token: string,
  options: { onProgress?: (progress: UploadProgress) => void; signal?: AbortSignal } = {},
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const abort = () => xhr.abort();
    const done = () => options.signal?.removeEventListener("abort", abort);
    xhr.open("POST", path);
    xhr.setRequestHeader("authorization", `Bearer ${token}`);
    xhr.setRequestHeader("accept", "application/json");
    xhr.setRequestHeader("content-type", file.type || "application/octet-stream");
    xhr.upload.onprogress = (event) =>
      options.onProgress?.({ loaded: event.loaded, total: event.total || file.size });
    xhr.onload = async () => {
      done();
      const answer = new Response(xhr.responseText, {
        status: xhr.status,
        headers: { "content-type": xhr.getResponseHeader("content-type") ?? "" },
      });
      if (!answer.ok) return reject(await errorFromResponse(answer));
      options.onProgress?.({ loaded: file.size, total: file.size });
      answer
        .json()
        .then(resolve, () =>
          reject(new ApiError(xhr.status, "BAD_RESPONSE", "The server sent an unreadable answer.")),
        );
    };
    xhr.onerror = () => {
      done();
      reject(new ApiError(0, "NETWORK", "Could not reach the server. Try the upload again."));
    };
    xhr.onabort = () => {
      done();
      reject(new DOMException("The upload was cancelled.", "AbortError"));
    };
    if (options.signal?.aborted) return reject(new DOMException("Cancelled.", "AbortError"));
    options.signal?.addEventListener("abort", abort, { once: true });
    xhr.send(file);
  });
}
