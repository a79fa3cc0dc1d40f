import type { Id } from "@svc/server";
import { errorFromProblem, SvcClientError } from "./client-error.ts";

/** How far an upload has gone: bytes sent of the file's size. */
export interface UploadProgress {
  loaded: number;
  total: number;
}

/** Options of {@link uploadFile} (and `client.uploadFile`). */
export interface UploadFileOptions {
  /** Told as the bytes go out (in browsers, as `XMLHttpRequest` reports them; elsewhere at the end). */
  onProgress?: (progress: UploadProgress) => void;
  /** Cancels the upload; the promise rejects with an `AbortError`. */
  signal?: AbortSignal;
  /** The file's type; default the `Blob`'s own, else `application/octet-stream`. */
  contentType?: string;
  /** Resolves a root-relative upload URL (`/_svc/storage/…`). Default: the page's origin. */
  baseUrl?: string | URL;
  /**
   * `fetch` to send with. Given, it is always used (no progress events
   * before the end); else browsers use `XMLHttpRequest`, for progress.
   */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
}

/** The part of the browser's `XMLHttpRequest` an upload uses (the only way to see upload progress). */
interface Xhr {
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  send(body: Blob): void;
  abort(): void;
  readonly status: number;
  readonly responseText: string;
  readonly upload: {
    onprogress:
      | ((event: { loaded: number; total: number; lengthComputable: boolean }) => void)
      | null;
  };
  onload: (() => void) | null;
  onerror: (() => void) | null;
  onabort: (() => void) | null;
}

const browser = globalThis as {
  XMLHttpRequest?: new () => Xhr;
  location?: { href: string };
};

function aborted(): DOMException {
  return new DOMException("The upload was cancelled.", "AbortError");
}

function answer(status: number, text: string): Id<"_storage"> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (cause) {
    throw new SvcClientError(
      "PROTOCOL_ERROR",
      "The upload answered with a body that is not JSON.",
      {
        status,
        cause,
      },
    );
  }
  if (status < 200 || status > 299) throw errorFromProblem(status, body);
  const storageId = (body as { storageId?: unknown } | null)?.storageId;
  if (typeof storageId !== "string")
    throw new SvcClientError("PROTOCOL_ERROR", "The upload answered without a storageId.", {
      status,
    });
  return storageId as Id<"_storage">;
}

function withXhr(
  XhrClass: new () => Xhr,
  url: string,
  file: Blob,
  type: string,
  options: UploadFileOptions,
) {
  return new Promise<Id<"_storage">>((resolve, reject) => {
    const xhr = new XhrClass();
    const onAbort = () => xhr.abort();
    xhr.open("POST", url);
    xhr.setRequestHeader("content-type", type);
    xhr.upload.onprogress = (event) =>
      options.onProgress?.({
        loaded: event.loaded,
        total: event.lengthComputable ? event.total : file.size,
      });
    const settle = (work: () => void) => {
      options.signal?.removeEventListener("abort", onAbort);
      try {
        work();
      } catch (error) {
        reject(error);
      }
    };
    xhr.onload = () =>
      settle(() => {
        const storageId = answer(xhr.status, xhr.responseText);
        options.onProgress?.({ loaded: file.size, total: file.size });
        resolve(storageId);
      });
    xhr.onerror = () =>
      settle(() =>
        reject(new SvcClientError("NETWORK_ERROR", `Could not reach ${new URL(url).origin}.`)),
      );
    xhr.onabort = () => settle(() => reject(aborted()));
    if (options.signal?.aborted) return reject(aborted());
    options.signal?.addEventListener("abort", onAbort, { once: true });
    xhr.send(file);
  });
}

async function withFetch(
  url: string,
  file: Blob,
  type: string,
  options: UploadFileOptions,
): Promise<Id<"_storage">> {
  const send = options.fetch ?? ((input: string, init: RequestInit) => fetch(input, init));
  options.onProgress?.({ loaded: 0, total: file.size });
  let response: Response;
  try {
    response = await send(url, {
      method: "POST",
      headers: { "content-type": type },
      body: file,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (cause) {
    if (options.signal?.aborted) throw aborted();
    throw new SvcClientError("NETWORK_ERROR", `Could not reach ${new URL(url).origin}.`, { cause });
  }
  const storageId = answer(response.status, await response.text());
  options.onProgress?.({ loaded: file.size, total: file.size });
  return storageId;
}

/**
 * Uploads one file to an upload URL from `ctx.storage.generateUploadUrl`
 * and answers its storage id, reporting progress on the way. A refused
 * upload rejects with an `SvcClientError` carrying the server's code and
 * `data.reason` (`too_large`, `content_type`, `expired`, `used`, …).
 *
 * @example
 * ```ts
 * const url = await client.mutation(api.files.uploadUrl);
 * const storageId = await uploadFile(url, file, { onProgress: ({ loaded, total }) => bar(loaded / total) });
 * await client.mutation(api.files.save, { file: storageId, name: file.name });
 * ```
 */
export function uploadFile(
  uploadUrl: string,
  file: Blob,
  options: UploadFileOptions = {},
): Promise<Id<"_storage">> {
  const base = options.baseUrl ?? browser.location?.href;
  const url = new URL(uploadUrl, base).toString();
  const type = options.contentType ?? (file.type || "application/octet-stream");
  if (options.fetch === undefined && browser.XMLHttpRequest !== undefined)
    return withXhr(browser.XMLHttpRequest, url, file, type, options);
  return withFetch(url, file, type, options);
}
