import { SvcError } from "../errors/svc-error.ts";

/** Largest upload when `generateUploadUrl` names no `maxBytes`: 10 MiB. */
export const DEFAULT_MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** Largest `maxBytes` an upload URL may allow: 4 GiB (one R2 put takes up to 5 GiB). */
export const MAX_UPLOAD_BYTES = 4 * 1024 * 1024 * 1024;
/** How long an upload URL lasts by default: 10 minutes. */
export const DEFAULT_UPLOAD_URL_MS = 10 * 60 * 1000;
/** How long a download URL lasts by default: 1 hour. */
export const DEFAULT_DOWNLOAD_URL_MS = 60 * 60 * 1000;
/** The longest life of any storage URL: 7 days. */
export const MAX_URL_MS = 7 * 24 * 60 * 60 * 1000;

const TOKEN = "[!#$%&'*+.^_`|~0-9a-z-]+";
const QUOTED = '"(?:[\\t\\x20\\x21\\x23-\\x5b\\x5d-\\x7e]|\\\\[\\t\\x20-\\x7e])*"';
/** RFC 9110 §8.3.1: `type/subtype`, then `;`-separated `name=value` parameters (empty ones allowed). */
const CONTENT_TYPE = new RegExp(
  `^(${TOKEN}/${TOKEN})(?:[ \\t]*;[ \\t]*(?:${TOKEN}=(?:${TOKEN}|${QUOTED}))?)*$`,
  "i",
);

/**
 * A `Content-Type` read as exactly one media type: `type/subtype`
 * lower-cased, parameters dropped, or `null` for anything else. A list
 * (`video/mp4,text/html`) is `null`: cutting it at `;` would let its first
 * part pass an allow-list, or make a download inline, while a browser may
 * read the whole value otherwise.
 *
 * @example parseMediaType("Image/PNG; charset=x") // "image/png"
 * @example parseMediaType("image/png, text/html") // null
 */
export function parseMediaType(value: string | null | undefined): string | null {
  const match = CONTENT_TYPE.exec((value ?? "").trim());
  return match === null ? null : match[1]!.toLowerCase();
}

/**
 * The type a new file is stored under: its declared `Content-Type` as one
 * media type ({@link parseMediaType}), `application/octet-stream` when none
 * is declared, refused `BAD_REQUEST` with reason `content_type` otherwise,
 * before anything is stored.
 *
 * @example const contentType = uploadType(request.headers.get("content-type"));
 */
export function uploadType(value: string | null | undefined): string {
  if (value === null || value === undefined || value.trim() === "")
    return "application/octet-stream";
  const type = parseMediaType(value);
  if (type === null)
    throw refusedUpload(
      "BAD_REQUEST",
      "content_type",
      `The Content-Type ${JSON.stringify(value)} is not one media type (type/subtype, then optional parameters).`,
    );
  return type;
}

const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/([a-z0-9][a-z0-9!#$&^_.+-]*|\*)$/;

/**
 * Whether a type from {@link uploadType} is in an allow-list of exact types
 * and `type/*` wildcards (`null`: any type).
 *
 * @example typeAllowed("image/png", ["image/*"]) // true
 */
export function typeAllowed(type: string, allowed: readonly string[] | null): boolean {
  if (allowed === null) return true;
  return allowed.some(
    (entry) => entry === type || (entry.endsWith("/*") && type.startsWith(entry.slice(0, -1))),
  );
}

/**
 * Checks an allow-list given to `generateUploadUrl`: media types or
 * `type/*`, lower-cased.
 *
 * @example checkedTypes(["image/*", "application/pdf"])
 */
export function checkedTypes(types: readonly string[] | undefined): string[] | null {
  if (types === undefined) return null;
  if (!Array.isArray(types) || types.length === 0 || types.length > 50)
    throw new Error("svc: storage contentTypes must list 1 to 50 media types");
  return types.map((entry) => {
    const type = String(entry).trim().toLowerCase();
    if (!MEDIA_TYPE.test(type))
      throw new Error(`svc: storage contentTypes has ${JSON.stringify(entry)}, not a media type`);
    return type;
  });
}

/**
 * Checks a whole number of milliseconds or bytes within `1…max`, or takes the default.
 *
 * @example bounded(undefined, 600_000, MAX_URL_MS, "expiresInMs") // 600000
 */
export function bounded(
  value: number | undefined,
  fallback: number,
  max: number,
  name: string,
): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1 || value > max)
    throw new Error(`svc: storage ${name} must be a whole number from 1 to ${max}`);
  return value;
}

/**
 * The error for a body refused before anything is stored.
 *
 * @example throw refusedUpload("PAYLOAD_TOO_LARGE", "too_large", "…");
 */
export function refusedUpload(
  code: "PAYLOAD_TOO_LARGE" | "BAD_REQUEST" | "CONFLICT",
  reason: string,
  message: string,
  cause?: unknown,
): SvcError {
  return new SvcError(code, message, { data: { reason }, cause });
}

/**
 * The answer to an upload URL used before (or whose mutation rolled back,
 * so it issued nothing): `CONFLICT` with `data.reason` `used`. The worker
 * answers it when R2 already holds the file's bytes, the shard when the
 * URL's row is no longer pending.
 *
 * @example if (!claimUpload(sql, id)) throw usedUrl();
 */
export function usedUrl(): SvcError {
  return refusedUpload("CONFLICT", "used", "This upload URL was already used.");
}
