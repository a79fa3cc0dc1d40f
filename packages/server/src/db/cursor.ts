import { SvcError } from "../errors/svc-error.ts";
import { decodeOpaqueJson, encodeOpaqueJson } from "../values/opaque-json.ts";

/** The sort key of the last row of a page: index values, `_creationTime`, `_id`. */
export type CursorKey = SqlStorageValue[];

/** Encodes a page position as an opaque URL-safe string (any text, `日本` included). */
export function encodeCursor(key: CursorKey): string {
  return encodeOpaqueJson(key);
}

/** Decodes a cursor from `encodeCursor`; a tampered one is a `BAD_REQUEST`. */
export function decodeCursor(cursor: string, keyLength: number): CursorKey {
  const key = decodeOpaqueJson(cursor);
  if (
    Array.isArray(key) &&
    key.length === keyLength &&
    key.every((part) => part === null || typeof part === "string" || typeof part === "number")
  ) {
    return key as CursorKey;
  }
  throw new SvcError("BAD_REQUEST", "The pagination cursor is not valid for this query.");
}
