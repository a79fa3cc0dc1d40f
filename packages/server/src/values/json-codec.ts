/**
 * The one JSON encoding of svc values, used by RPC, REST, stored documents and
 * the client: JSON, except `bigint` → `{"$int64": "<decimal>"}` and
 * `Uint8Array` → `{"$bytes": "<base64>"}`; `undefined` in objects is dropped and
 * a top-level `undefined` is `null`.
 *
 * @see ../../../../docs/values.md
 */

import { setOwn } from "./own-property.ts";

/** Replaces bigints and bytes with their tagged JSON forms. */
export function toJsonValue(value: unknown): unknown {
  if (typeof value === "bigint") return { $int64: value.toString() };
  if (value instanceof Uint8Array) return { $bytes: toBase64(value) };
  if (Array.isArray(value))
    return value.map((item) => (item === undefined ? null : toJsonValue(item)));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) {
      if (field !== undefined) setOwn(out, key, toJsonValue(field));
    }
    return out;
  }
  return value === undefined ? null : value;
}

/** Restores bigints and bytes from their tagged JSON forms. */
export function fromJsonValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(fromJsonValue);
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    if (keys.length === 1) {
      if (
        keys[0] === "$int64" &&
        typeof record.$int64 === "string" &&
        /^-?[0-9]{1,19}$/.test(record.$int64)
      ) {
        return BigInt(record.$int64);
      }
      if (keys[0] === "$bytes" && typeof record.$bytes === "string") {
        const bytes = fromBase64(record.$bytes);
        if (bytes) return bytes;
      }
    }
    const out: Record<string, unknown> = {};
    for (const key of keys) setOwn(out, key, fromJsonValue(record[key]));
    return out;
  }
  return value;
}

/**
 * True when `value` holds a bigint or bytes somewhere (what plain JSON cannot
 * carry), or an object with `toJSON` (which `toJsonValue` encodes by its
 * fields, as it always has).
 */
function needsTags(value: unknown): boolean {
  if (typeof value === "bigint" || value instanceof Uint8Array) return true;
  if (value === null || typeof value !== "object") return false;
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return true;
  if (Array.isArray(value)) return value.some(needsTags);
  for (const key in value) {
    if (needsTags((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

/** `JSON.stringify` in the svc encoding. */
export function stringifyJson(value: unknown): string {
  if (value === undefined) return "null";
  // Most values carry neither bigints nor bytes: a read-only walk then spares the copying one.
  return JSON.stringify(needsTags(value) ? toJsonValue(value) : value);
}

/** `JSON.parse` in the svc encoding. Throws `SyntaxError` on malformed text. */
export function parseJson(text: string): unknown {
  const parsed: unknown = JSON.parse(text);
  // A tagged value is an object with a `$int64` or `$bytes` key: without `"$` in the text there is none.
  return text.includes('"$') ? fromJsonValue(parsed) : parsed;
}

/** Bytes as standard base64 (backups carry file bytes this way too). */
export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Standard base64 back to bytes, or `undefined` when `text` is not base64. */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  try {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return undefined;
  }
}

export { decodeOpaqueJson, encodeOpaqueJson } from "./opaque-json.ts";
