import { SvcError } from "@svc/server";

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
  const bytes = new TextEncoder().encode(JSON.stringify([kind, ...key]));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
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
  const decoded = tryDecode(cursor);
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
    undefined,
    { issues: [{ path: "query.cursor", message: "not a cursor of this list and order" }] },
  );
}

function tryDecode(cursor: string): unknown {
  try {
    const binary = atob(cursor.replaceAll("-", "+").replaceAll("_", "/"));
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    return JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes));
  } catch {
    return undefined;
  }
}
