import type { CursorKey } from "./cursor.ts";

/** Key expressions that are columns declared NOT NULL, so a descending seek may bound them. */
const NOT_NULL_KEYS = new Set(["_creationTime", "_id"]);

/**
 * Rows strictly after `key` in the given order, NULL-aware (NULL sorts first).
 * With `fixed` (how many leading keys equalities pin), the first free key
 * also gets a plain range bound, so SQLite seeks to the cursor instead of
 * walking the index from its start (a deep page of a million rows costs what
 * the first does); the bound holds only for rows under those equalities.
 *
 * @example afterKey(["_creationTime", "_id"], [1700000000000, "notes_x"], "asc").clause
 * // "((_creationTime > ?) OR (_creationTime IS ? AND _id > ?))"
 */
export function afterKey(
  keys: string[],
  key: CursorKey,
  order: "asc" | "desc",
  fixed?: number,
): { clause: string; bindings: SqlStorageValue[] } {
  const alternatives: string[] = [];
  const bindings: SqlStorageValue[] = [];
  keys.forEach((expression, index) => {
    const parts: string[] = [];
    for (let j = 0; j < index; j++) {
      parts.push(`${keys[j]} IS ?`);
      bindings.push(key[j] ?? null);
    }
    const value = key[index] ?? null;
    // SQLite orders NULL before every value (NULL is the smallest key), so an
    // absent optional field sorts first ascending and last descending. After a
    // NULL, ascending continues with every non-NULL value; descending has
    // nothing left at this position ("0"), only ties broken by later keys.
    // After a value, descending continues with smaller values and then NULLs.
    if (order === "asc") {
      if (value === null) parts.push(`${expression} IS NOT NULL`);
      else {
        parts.push(`${expression} > ?`);
        bindings.push(value);
      }
    } else if (value === null) {
      parts.push("0");
    } else {
      parts.push(`(${expression} < ? OR ${expression} IS NULL)`);
      bindings.push(value);
    }
    alternatives.push(`(${parts.join(" AND ")})`);
  });
  let clause = `(${alternatives.join(" OR ")})`;
  if (fixed === undefined) return { clause, bindings };
  const seekKey = keys[fixed];
  const seekValue = key[fixed] ?? null;
  // Ascending, every row after a non-NULL value is >= it; descending, only a
  // NOT NULL column can be bounded (NULLs of a field would follow the value).
  if (seekKey !== undefined && seekValue !== null) {
    if (order === "asc") {
      clause = `${seekKey} >= ? AND ${clause}`;
      bindings.unshift(seekValue);
    } else if (NOT_NULL_KEYS.has(seekKey)) {
      clause = `${seekKey} <= ? AND ${clause}`;
      bindings.unshift(seekValue);
    }
  }
  return { clause, bindings };
}
