import { SvcError } from "../errors/svc-error.ts";
import { problemResponse } from "../http/problem-response.ts";
import { fileHeaders } from "./download-headers.ts";
import { type DownloadGrant, verifyGrant } from "./grant.ts";
import { type ResolvedStorageOptions, storageBucket, storageSecret } from "./options.ts";
import { objectKey } from "./paths.ts";

const notFound = () => new SvcError("NOT_FOUND", "No such file.");

/**
 * One `bytes=` range of a `Range` header as R2 takes it, or `undefined` for
 * none, several or a malformed one (then the whole file is sent, as RFC 9110
 * allows).
 *
 * @example rangeOf("bytes=0-99") // { offset: 0, length: 100 }
 */
export function rangeOf(header: string | null): R2Range | undefined {
  const match = /^bytes=(\d{0,15})-(\d{0,15})$/.exec(header?.trim() ?? "");
  if (match === null) return undefined;
  const [, start = "", end = ""] = match;
  if (start === "" && end === "") return undefined;
  if (start === "") return { suffix: Number(end) };
  if (end === "") return { offset: Number(start) };
  if (Number(end) < Number(start)) return undefined;
  return { offset: Number(start), length: Number(end) - Number(start) + 1 };
}

async function grantFor(
  secret: string,
  url: URL,
  storageId: string,
  now: number,
): Promise<DownloadGrant> {
  try {
    const grant = await verifyGrant(secret, url.searchParams.get("token"), "download", now);
    if (grant.id !== storageId) throw notFound();
    return grant;
  } catch (error) {
    // Only someone who held a good URL learns it expired; anything else is no file at all.
    if (error instanceof SvcError && (error.data as { reason?: string })?.reason === "expired")
      throw error;
    throw notFound();
  }
}

function unsatisfiable(size: number): Response {
  return new Response(null, { status: 416, headers: { "content-range": `bytes */${size}` } });
}

/**
 * `GET|HEAD /_svc/storage/files/<storage id>?token=…`: a file's bytes,
 * streamed from R2, through a URL from `ctx.storage.getUrl`. One `Range`
 * answers 206 with `Content-Range` (416 past the end); `If-None-Match`
 * (and the other preconditions R2 evaluates) answers 304 or 412. A bad or
 * missing token, or a deleted file, is `NOT_FOUND`; an expired one
 * `FORBIDDEN` (reason `expired`).
 *
 * @example
 * ```ts
 * <img src={await ctx.storage.getUrl(user.avatar)} />
 * ```
 */
export async function handleDownload(
  request: Request,
  env: unknown,
  url: URL,
  storageId: string,
  options: ResolvedStorageOptions,
): Promise<Response> {
  if (request.method !== "GET" && request.method !== "HEAD")
    throw new SvcError("METHOD_NOT_ALLOWED", "GET or HEAD only.", {
      headers: { allow: "GET, HEAD" },
    });
  const now = Date.now();
  const grant = await grantFor(storageSecret(env, options), url, storageId, now);
  const bucket = storageBucket(env, options);
  const key = objectKey(grant.shardKey, grant.id);
  const range = rangeOf(request.headers.get("range"));
  let object: R2Object | null;
  try {
    object =
      request.method === "HEAD"
        ? await bucket.head(key)
        : await bucket.get(key, { onlyIf: request.headers, ...(range ? { range } : {}) });
  } catch (error) {
    const head = range === undefined ? null : await bucket.head(key);
    if (head === null) return problemResponse(error, { request });
    return unsatisfiable(head.size);
  }
  if (object === null) throw notFound();
  const headers = fileHeaders(object, grant, now);
  if (request.method === "HEAD") {
    headers.set("content-length", String(object.size));
    return new Response(null, { status: 200, headers });
  }
  if (!("body" in object)) {
    const conditional =
      request.headers.has("if-none-match") || request.headers.has("if-modified-since");
    return new Response(null, { status: conditional ? 304 : 412, headers });
  }
  const body = (object as R2ObjectBody).body;
  if (range === undefined || object.range === undefined) {
    headers.set("content-length", String(object.size));
    return new Response(body, { status: 200, headers });
  }
  const served = object.range as { offset?: number; length?: number; suffix?: number };
  const offset =
    served.suffix !== undefined ? Math.max(0, object.size - served.suffix) : (served.offset ?? 0);
  const length =
    served.suffix !== undefined
      ? object.size - offset
      : Math.min(served.length ?? object.size - offset, object.size - offset);
  if (length <= 0) return unsatisfiable(object.size);
  headers.set("content-length", String(length));
  headers.set("content-range", `bytes ${offset}-${offset + length - 1}/${object.size}`);
  return new Response(body, { status: 206, headers });
}
