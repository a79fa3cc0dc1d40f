import { SvcError } from "@svc/server";
import { decodeOpaqueJson, encodeOpaqueJson } from "@svc/server/json";

/** The position after the last row of a page: its sort key and its id. */
export type CursorKey = readonly [sortValue: string | number, id: string];

/**
 * Encodes a keyset position as an opaque string. `kind` names the list and
 * its order (`users:created:desc`), so a cursor from one ordering is refused
 * by another instead of silently skipping rows.
 *
 * @example
 * ```ts
 * const nextCursor = encodeCursor("users:created:desc", [last.createdAt, last.id]);
 * ```
 */
export function encodeCursor(kind: string, key: CursorKey): string {
  return encodeOpaqueJson([kind, ...key]);
}

/**
 * Reads a cursor made by {@link encodeCursor} for the same `kind`.
 *
 * @throws {SvcError} `VALIDATION_FAILED` (path `query.cursor`) for anything else
 * @example
 * ```ts
 * const after = query.cursor === undefined ? null : decodeCursor(query.cursor, kind);
 * ```
 */
export function decodeCursor(cursor: string, kind: string): CursorKey {
  const decoded = decodeOpaqueJson(cursor);
  if (
    Array.isArray(decoded) &&
    decoded.length === 3 &&
    decoded[0] === kind &&
    (typeof decoded[1] === "string" || typeof decoded[1] === "number") &&
    typeof decoded[2] === "string"
  ) {
    return [decoded[1], decoded[2]];
  }
  throw new SvcError(
    "VALIDATION_FAILED",
    "Invalid request: query.cursor: not a cursor of this list and order (start again without cursor).",
    { issues: [{ path: "query.cursor", message: "not a cursor of this list and order" }] },
  );
}
