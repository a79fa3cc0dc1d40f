import { type CursorKey, decodeCursor, encodeCursor } from "./cursor.ts";
import type { Row } from "./records.ts";

/** How a list is ordered: a sort column, then the id as tie-breaker. */
export interface KeysetOrder {
  /** Cursor namespace: list, sort and direction (`users:created:desc`). */
  kind: string;
  /** Qualified SQL of the sort column (`u."createdAt"`). */
  column: string;
  /** Qualified SQL of the id column (`u."id"`). */
  id: string;
  direction: "asc" | "desc";
  /** The sort column is unique: no tie-breaker needed (e.g. `email`). */
  unique?: boolean;
}

/** Alias under which a page query selects the raw sort value, for the next cursor. */
const SORT_KEY = "__sort";

/**
 * Keyset pagination: the condition for "after the cursor", the `ORDER BY`,
 * and the page cut. Each page is one index range scan, however deep it is,
 * unlike `OFFSET`, which reads every skipped row; rows inserted meanwhile
 * never shift a page. The condition is written `col >= ? AND (col > ? OR id > ?)`
 * so SQLite turns its first half into an index range.
 *
 * @example
 * ```ts
 * const page = new Keyset(order, query.cursor);
 * const sql = `SELECT … WHERE ${[...filters, ...page.where()].join(" AND ")} ORDER BY ${page.orderBy()} LIMIT ?`;
 * const { items, nextCursor } = page.cut(rows, limit);
 * ```
 */
export class Keyset {
  readonly #order: KeysetOrder;
  readonly #after: CursorKey | null;

  constructor(order: KeysetOrder, cursor: string | undefined) {
    this.#order = order;
    this.#after = cursor === undefined ? null : decodeCursor(cursor, order.kind);
  }

  /**
   * Zero or one SQL condition, with {@link binds} to go with it. With `scan`,
   * as in {@link orderBy}, its columns are written `+column`, so the sort
   * index is not used to find the range either.
   */
  where(scan = false): string[] {
    if (this.#after === null) return [];
    const { direction, unique } = this.#order;
    const key = (sql: string) => (scan ? `+${sql}` : sql);
    const column = key(this.#order.column);
    const id = key(this.#order.id);
    const op = direction === "asc" ? ">" : "<";
    if (unique) return [`${column} ${op} ?`];
    return [`${column} ${op}= ? AND (${column} ${op} ? OR ${id} ${op} ?)`];
  }

  /** Values for the placeholders of {@link where}, in order. */
  binds(): unknown[] {
    if (this.#after === null) return [];
    const [value, id] = this.#after;
    return this.#order.unique ? [value] : [value, value, id];
  }

  /**
   * The `ORDER BY` list (without the keywords). With `scan`, the sort keys
   * are written `+column`, which keeps SQLite from walking the sort index:
   * for a filter that matches few rows (a search), one table scan plus a
   * top-N sort of the matches beats visiting every index entry and its row.
   */
  orderBy(scan = false): string {
    const { column, id, direction, unique } = this.#order;
    const dir = direction.toUpperCase();
    const key = (sql: string) => (scan ? `+${sql}` : sql);
    return unique ? `${key(column)} ${dir}` : `${key(column)} ${dir}, ${key(id)} ${dir}`;
  }

  /** `SELECT` item carrying the raw sort value as {@link SORT_KEY}. */
  sortSelect(): string {
    return `${this.#order.column} AS "${SORT_KEY}"`;
  }

  /**
   * Cuts a result fetched with `LIMIT limit + 1` to the page and the cursor
   * of the next one (`null` on the last page).
   */
  cut(rows: Row[], limit: number): { rows: Row[]; nextCursor: string | null } {
    if (rows.length <= limit) return { rows, nextCursor: null };
    const page = rows.slice(0, limit);
    const last = page[page.length - 1]!;
    const value = last[SORT_KEY];
    const key: CursorKey = [typeof value === "number" ? value : String(value), String(last.id)];
    return { rows: page, nextCursor: encodeCursor(this.#order.kind, key) };
  }
}
