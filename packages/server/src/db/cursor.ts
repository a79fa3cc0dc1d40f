import { SvcError } from "../errors/svc-error.ts";

/** The sort key of the last row of a page: index values, `_creationTime`, `_id`. */
export type CursorKey = SqlStorageValue[];

/** Encodes a page position as an opaque URL-safe string. */
export function encodeCursor(key: CursorKey): string {
  return btoa(JSON.stringify(key)).replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "");
}

/** Decodes a cursor from `encodeCursor`; a tampered one is a `BAD_REQUEST`. */
export function decodeCursor(cursor: string, keyLength: number): CursorKey {
  try {
    const json = atob(cursor.replaceAll("-", "+").replaceAll("_", "/"));
    const key: unknown = JSON.parse(json);
    if (
      Array.isArray(key) &&
      key.length === keyLength &&
      key.every((part) => part === null || typeof part === "string" || typeof part === "number")
    ) {
      return key as CursorKey;
    }
  } catch {
    // fall through to the error below
  }
  throw new SvcError("BAD_REQUEST", "The pagination cursor is not valid for this query.");
}
