/**
 * Opaque, URL-safe tokens that carry a JSON value (pagination cursors).
 *
 * Why UTF-8 first: `btoa` accepts only Latin-1, so a cursor over an index value
 * such as `"日本"` used to throw inside the shard and answer 500. Encoding the
 * JSON text as UTF-8 bytes makes every string value round-trip.
 */

/**
 * Encodes any JSON-serialisable value as unpadded base64url of its UTF-8 JSON text.
 *
 * @example
 * ```ts
 * encodeOpaqueJson(["日本", 1]); // "WyLml6XmnKwiLDFd"
 * ```
 */
export function encodeOpaqueJson(value: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/**
 * Reads a token made by {@link encodeOpaqueJson}. Never throws: anything that is
 * not base64url of valid UTF-8 JSON gives `undefined`, so callers answer their
 * own 400 instead of leaking a decoder error as a 500.
 *
 * @example
 * ```ts
 * const key = decodeOpaqueJson(cursor);
 * if (!Array.isArray(key)) throw new SvcError("BAD_REQUEST", "Bad cursor.");
 * ```
 */
export function decodeOpaqueJson(token: string): unknown {
  try {
    const binary = atob(token.replaceAll("-", "+").replaceAll("_", "/"));
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    return JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes));
  } catch {
    return undefined;
  }
}
