import type { DownloadGrant } from "./grant.ts";
import { parseMediaType } from "./limits.ts";

/**
 * Types a browser may show in place. Anything else, HTML and SVG above all
 * (they run script in the app's origin), is sent as an attachment.
 */
const INLINE_TYPES = [
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
  "image/avif",
  "application/pdf",
  "text/plain",
];
const INLINE_FAMILIES = ["audio/", "video/"];
/** Longest time a browser keeps a file it read through a signed URL. */
const MAX_CACHE_SECONDS = 24 * 60 * 60;

/**
 * Whether a stored type is shown inline (images but SVG, audio, video, PDF,
 * plain text) rather than downloaded: only when it is one media type, so a
 * list such as `video/mp4,text/html` (stored before uploads were checked)
 * is an attachment.
 *
 * @example showsInline("image/svg+xml") // false
 */
export function showsInline(contentType: string): boolean {
  const type = parseMediaType(contentType);
  if (type === null) return false;
  return INLINE_TYPES.includes(type) || INLINE_FAMILIES.some((family) => type.startsWith(family));
}

function disposition(contentType: string, filename: string | null): string {
  const kind = showsInline(contentType) ? "inline" : "attachment";
  if (filename === null) return kind;
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/**
 * The headers of every answer with a file's bytes (or a 304 for them): the
 * stored type, never sniffed (`nosniff`) and sandboxed (`Content-Security-Policy`),
 * inline only for {@link showsInline} types, its ETag, and a private cache
 * life no longer than the URL's.
 *
 * @example const headers = fileHeaders(object, grant, Date.now());
 */
export function fileHeaders(object: R2Object, grant: DownloadGrant, now: number): Headers {
  const headers = new Headers();
  const contentType = object.httpMetadata?.contentType ?? "application/octet-stream";
  headers.set("content-type", contentType);
  headers.set("content-disposition", disposition(contentType, grant.filename));
  headers.set("x-content-type-options", "nosniff");
  headers.set("content-security-policy", "default-src 'none'; sandbox");
  headers.set("etag", object.httpEtag);
  headers.set("accept-ranges", "bytes");
  const seconds = Math.max(
    0,
    Math.min(MAX_CACHE_SECONDS, Math.floor((grant.expiresAt - now) / 1000)),
  );
  headers.set("cache-control", `private, max-age=${seconds}, immutable`);
  return headers;
}
