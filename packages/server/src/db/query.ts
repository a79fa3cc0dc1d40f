import { SvcError } from "../errors/svc-error.ts";
import type { CompiledRule } from "../schema/rule.ts";
import type { SearchIndexSpec } from "../schema/search-index.ts";
import { afterKey } from "./after-key.ts";
import { type CursorKey, decodeCursor, encodeCursor } from "./cursor.ts";
import type { PresentedDocument } from "./document-view.ts";
import {
  type LooseSearchFilter,
  planSearch,
  SEARCH_KEYS,
  type SearchPlan,
  searchIndexBuilding,
  searchSource,
} from "./search/plan.ts";
import { fieldExpression, indexKeys, type StoredRow, sqlTable, toSqlValue } from "./storage.ts";
import type { PaginationOptions, PaginationResult } from "./types.ts";

type Doc = Record<string, unknown> & { _id: string; _creationTime: number };
type RangeOp = "gt" | "gte" | "lt" | "lte";

/** The range builder as the runtime sees it: names and values checked here, not by types. */
interface LooseIndexRange {
  eq(field: string, value: unknown): LooseIndexRange;
  gt(field: string, value: unknown): LooseIndexRange;
  gte(field: string, value: unknown): LooseIndexRange;
  lt(field: string, value: unknown): LooseIndexRange;
  lte(field: string, value: unknown): LooseIndexRange;
}

/** How many rows a bounded page may still read, and where the last one was. */
interface ScanBudget {
  left: number;
  scanned: number;
  lastKey: CursorKey | undefined;
  /** True once a row was left unread because the budget ran out. */
  spent: boolean;
}

/** A page of {@link TableQuery.boundedPage}: how many rows it read, and whether it stopped early. */
export interface BoundedPage<Doc> extends PaginationResult<Doc> {
  /** Rows read from SQLite for this page, hidden and filtered ones included. */
  scanned: number;
  /** Present when the scan budget ran out before the page filled. */
  scanLimited?: true;
}

/** Everything a query needs from the database it belongs to. */
export interface QuerySource {
  sql: SqlStorage;
  table: string;
  /** The row as the handler sees it (`null`: not shown), see `DocumentView`. */
  present(row: StoredRow): PresentedDocument | null | Promise<PresentedDocument | null>;
  /**
   * True when the caller may see the document (RLS `read`, a function
   * policy), or a promise of it when a policy is async; `migrated` when a
   * pending migration changed it in memory.
   */
  canRead(doc: Doc, migrated: boolean): boolean | Promise<boolean>;
  /** A declarative read rule compiled for this caller, added to the query's WHERE. */
  visibility?: () => Promise<CompiledRule>;
  /** The table's search indexes by name (none when absent). */
  searchIndexes?: Record<string, SearchIndexSpec>;
}

interface QueryState {
  indexName: string | undefined;
  indexFields: readonly string[];
  eqs: { field: string; value: unknown }[];
  bounds: { field: string; op: RangeOp; value: unknown }[];
  order: "asc" | "desc";
  filters: ((doc: Doc) => boolean)[];
  /** Set by `withSearchIndex`: rows come from the search, in relevance order. */
  search?: SearchPlan & { index: string };
}

const SQL_OP: Record<RangeOp, string> = { gt: ">", gte: ">=", lt: "<", lte: "<=" };

/** A row's sort key (its `k0`, `k1`, … columns): what a cursor points after. Made only for a cursor. */
function rowKey(row: StoredRow, keyCount: number): CursorKey {
  const key: CursorKey = [];
  for (let index = 0; index < keyCount; index++) key.push(row[`k${index}`] ?? null);
  return key;
}

/** The index every table has: by `_creationTime` (then `_id`), as Convex names it. */
export const CREATION_TIME_INDEX = "by_creation_time";

/** Builds the range of `withIndex(name, q => q.eq(...).gt(...))`, checking field order. */
function buildRange(
  indexName: string,
  fields: readonly string[],
  define: (q: LooseIndexRange) => unknown,
) {
  const keys = [...fields, "_creationTime"];
  const eqs: QueryState["eqs"] = [];
  const bounds: QueryState["bounds"] = [];
  const misuse = (message: string) =>
    new SvcError("BAD_REQUEST", `withIndex(${JSON.stringify(indexName)}): ${message}`);
  const range: LooseIndexRange = {
    eq(field, value) {
      if (bounds.length > 0) throw misuse("eq() must come before range bounds");
      if (keys[eqs.length] !== field)
        throw misuse(`expected eq on ${keys[eqs.length] ?? "nothing"}, got ${field}`);
      eqs.push({ field, value });
      return range;
    },
    gt: (field, value) => bound(field, "gt", value),
    gte: (field, value) => bound(field, "gte", value),
    lt: (field, value) => bound(field, "lt", value),
    lte: (field, value) => bound(field, "lte", value),
  };
  function bound(field: string, op: RangeOp, value: unknown) {
    if (keys[eqs.length] !== field)
      throw misuse(`range bound must be on ${keys[eqs.length] ?? "nothing"}, got ${field}`);
    const side = op.startsWith("g") ? "lower" : "upper";
    if (bounds.some((b) => (b.op.startsWith("g") ? "lower" : "upper") === side)) {
      throw misuse(`two ${side} bounds on ${field}`);
    }
    bounds.push({ field, op, value });
    return range;
  }
  define(range);
  return { eqs, bounds };
}

/**
 * A query over one table. Immutable: each step returns a new query. Rows come
 * from SQLite in index order; RLS, then `filter`, run on each row, so hidden rows
 * never count towards `take` or a page.
 */
export class TableQuery {
  readonly #source: QuerySource;
  readonly #state: QueryState;
  readonly #indexes: Record<string, readonly string[]>;

  constructor(source: QuerySource, indexes: Record<string, readonly string[]>, state?: QueryState) {
    this.#source = source;
    this.#indexes = indexes;
    this.#state = state ?? {
      indexName: undefined,
      indexFields: [],
      eqs: [],
      bounds: [],
      order: "asc",
      filters: [],
    };
  }

  #with(patch: Partial<QueryState>): TableQuery {
    return new TableQuery(this.#source, this.#indexes, { ...this.#state, ...patch });
  }

  withIndex(name: string, define?: (q: LooseIndexRange) => unknown): TableQuery {
    if (this.#state.indexName !== undefined || this.#state.search !== undefined)
      throw new Error("svc: withIndex() was already called on this query");
    const fields =
      typeof name === "string" && Object.hasOwn(this.#indexes, name)
        ? this.#indexes[name]
        : name === CREATION_TIME_INDEX
          ? []
          : undefined;
    if (fields === undefined)
      throw new SvcError(
        "BAD_REQUEST",
        `Table ${this.#source.table} has no index ${JSON.stringify(name)}.`,
      );
    const range = define ? buildRange(name, fields, define) : { eqs: [], bounds: [] };
    return this.#with({ indexName: name, indexFields: fields, ...range });
  }

  /** Rows of a search index's matches, in relevance order (docs/search.md). */
  withSearchIndex(name: string, define: (q: LooseSearchFilter) => unknown): TableQuery {
    if (this.#state.indexName !== undefined || this.#state.search !== undefined)
      throw new Error("svc: withIndex() was already called on this query");
    const specs = this.#source.searchIndexes ?? {};
    const spec = typeof name === "string" && Object.hasOwn(specs, name) ? specs[name] : undefined;
    if (spec === undefined)
      throw new SvcError(
        "BAD_REQUEST",
        `Table ${this.#source.table} has no search index ${JSON.stringify(name)}.`,
      );
    const plan = planSearch(this.#source.table, name, spec, define);
    return this.#with({ search: { ...plan, index: name }, eqs: plan.eqs });
  }

  order(order: "asc" | "desc"): TableQuery {
    if (this.#state.search !== undefined) {
      throw new SvcError(
        "BAD_REQUEST",
        "A search answers in relevance order: order() is not used.",
      );
    }
    if (order !== "asc" && order !== "desc") {
      throw new SvcError(
        "BAD_REQUEST",
        `order must be "asc" or "desc", got ${JSON.stringify(order)}.`,
      );
    }
    return this.#with({ order });
  }

  filter(predicate: (doc: Doc) => boolean): TableQuery {
    return this.#with({ filters: [...this.#state.filters, predicate] });
  }

  async take(n: number): Promise<Doc[]> {
    if (!Number.isInteger(n) || n < 0) {
      // n often comes straight from a caller (`?limit=1.5`): a 400, not a 500.
      throw new SvcError("BAD_REQUEST", `take(n) needs a non-negative integer, got ${String(n)}.`);
    }
    const out: Doc[] = [];
    if (n === 0) return out;
    await this.#scan(undefined, {}, (doc) => out.push(doc) >= n);
    return out;
  }

  async first(): Promise<Doc | null> {
    return (await this.take(1))[0] ?? null;
  }

  async unique(): Promise<Doc | null> {
    const rows = await this.take(2);
    if (rows.length > 1)
      throw new Error(`svc: unique() found more than one row in ${this.#source.table}`);
    return rows[0] ?? null;
  }

  async collect(): Promise<Doc[]> {
    const out: Doc[] = [];
    await this.#scan(undefined, {}, (doc) => {
      out.push(doc);
      return false;
    });
    return out;
  }

  async paginate(options: PaginationOptions): Promise<PaginationResult<Doc>> {
    const { cursor, numItems, endCursor } = options;
    const keyLength = this.#keys().length;
    const after = cursor === null || cursor === "" ? undefined : decodeCursor(cursor, keyLength);
    if (typeof endCursor === "string" && endCursor !== "") {
      return this.#pinnedPage(after, endCursor, decodeCursor(endCursor, keyLength));
    }
    if (!Number.isInteger(numItems) || numItems < 1) {
      throw new SvcError("BAD_REQUEST", "numItems must be a positive integer.");
    }
    const { page, lastKey, more } = await this.#fillPage(after, {}, numItems, keyLength);
    if (more) return { page, isDone: false, continueCursor: encodeCursor(lastKey ?? []) };
    return { page, isDone: true, continueCursor: lastKey ? encodeCursor(lastKey) : "" };
  }

  /**
   * A page that reads at most `maxScanned` rows from SQLite, rows hidden by a
   * function policy or dropped by `filter` included: the data studio's browse,
   * which must stay cheap on any table whatever the filter. When the budget
   * runs out before the page is full, `continueCursor` points after the last
   * row read and `scanLimited` is true, so the caller can say so and go on.
   */
  async boundedPage(
    options: PaginationOptions & { maxScanned: number },
  ): Promise<BoundedPage<Doc>> {
    const { cursor, numItems, maxScanned } = options;
    if (!Number.isInteger(numItems) || numItems < 1) {
      throw new SvcError("BAD_REQUEST", "numItems must be a positive integer.");
    }
    const keyLength = this.#keys().length;
    const after = cursor === null || cursor === "" ? undefined : decodeCursor(cursor, keyLength);
    const budget: ScanBudget = { left: maxScanned, scanned: 0, lastKey: undefined, spent: false };
    const { page, lastKey, more } = await this.#fillPage(after, { budget }, numItems, keyLength);
    if (more) {
      // The row that proved there is more was read, not returned: not counted.
      const scanned = budget.scanned - 1;
      return { page, isDone: false, continueCursor: encodeCursor(lastKey ?? []), scanned };
    }
    const { scanned } = budget;
    if (budget.spent && budget.lastKey !== undefined) {
      const continueCursor = encodeCursor(budget.lastKey);
      return { page, isDone: false, continueCursor, scanned, scanLimited: true };
    }
    return { page, isDone: true, continueCursor: lastKey ? encodeCursor(lastKey) : "", scanned };
  }

  /**
   * Up to `numItems` visible rows after `after`, and the sort key of the
   * last one (`after` when none); `more` when a row beyond them was read.
   */
  async #fillPage(
    after: CursorKey | undefined,
    bounds: { budget?: ScanBudget },
    numItems: number,
    keyLength: number,
  ): Promise<{ page: Doc[]; lastKey: CursorKey | undefined; more: boolean }> {
    const page: Doc[] = [];
    let lastKey = after;
    let more = false;
    await this.#scan(after, bounds, (doc, row) => {
      if (page.length === numItems) {
        more = true;
        return true;
      }
      page.push(doc);
      lastKey = rowKey(row, keyLength);
      return false;
    });
    return { page, lastKey, more };
  }

  /** Every visible row in (`after`, `end`]; `isDone` when no row follows `end`. */
  async #pinnedPage(
    after: CursorKey | undefined,
    endCursor: string,
    end: CursorKey,
  ): Promise<PaginationResult<Doc>> {
    const page: Doc[] = [];
    let pastEnd = false;
    await this.#scan(after, { end }, (doc, row) => {
      if (row.past_end === 1) {
        pastEnd = true;
        return true;
      }
      page.push(doc);
      return false;
    });
    return { page, isDone: !pastEnd, continueCursor: endCursor };
  }

  /** The sort keys of this query's rows: the index's fields or a search's relevance, then the tie-breaks. */
  #keys(): string[] {
    return this.#state.search ? [...SEARCH_KEYS] : indexKeys(this.#state.indexFields);
  }

  /**
   * Hands `visit` each row after `after` (and up to `end`'s first row past
   * it, marked `past_end`) that the caller may read and the filters keep, in
   * order, until `visit` answers `true` (enough). A callback, not an async generator:
   * a generator's `yield` and its consumer's `for await` cost promises and
   * turns on every row, and so did awaiting a presentation or read check
   * that was no promise (a REST list of 100 rows spent more of its CPU on
   * them than on SQLite: BENCHMARKS.md section 1b). Here a row waits only
   * for a promise it was given (a migration presenting it, an async policy).
   */
  async #scan(
    after: CursorKey | undefined,
    bounds: { end?: CursorKey; budget?: ScanBudget },
    visit: (doc: Doc, row: StoredRow) => boolean,
  ): Promise<void> {
    const { end, budget } = bounds;
    const { table, present, canRead, visibility } = this.#source;
    const state = this.#state;
    const keys = this.#keys();
    const where: string[] = [];
    const bindings: SqlStorageValue[] = [];
    if (visibility !== undefined) {
      const compiled = await visibility();
      where.push(compiled.sql);
      bindings.push(...compiled.bindings);
    }
    for (const { field, value } of state.eqs) {
      where.push(`${fieldExpression(field)} IS ?`);
      bindings.push(toSqlValue(value));
    }
    for (const { field, op, value } of state.bounds) {
      where.push(`${fieldExpression(field)} ${SQL_OP[op]} ?`);
      bindings.push(toSqlValue(value));
    }
    // A search applies RLS and its filters inside its window of candidates (see
    // searchSource), so only the cursor is left for the outer WHERE.
    const { search } = state;
    const from = search
      ? this.#unlessBuilding(() =>
          searchSource(this.#source.sql, table, search, where.splice(0), bindings.splice(0)),
        )
      : undefined;
    if (after) {
      // A search's equalities are on filter fields, not on its keys: nothing to seek by.
      const fixed = state.search ? undefined : state.eqs.length;
      const { clause, bindings: afterBindings } = afterKey(keys, after, state.order, fixed);
      where.push(clause);
      bindings.push(...afterBindings);
    }
    const direction = state.order === "asc" ? "ASC" : "DESC";
    let keyColumns = keys.map((expression, index) => `${expression} AS k${index}`).join(", ");
    // Placeholders in statement order: the select list, then the source, then WHERE.
    bindings.unshift(...(from?.bindings ?? []));
    if (end) {
      // A comparison with a NULL key is NULL exactly where the row is not after `end`.
      const past = afterKey(keys, end, state.order);
      keyColumns += `, COALESCE(${past.clause}, 0) AS past_end`;
      bindings.unshift(...past.bindings);
    }
    const statement =
      `SELECT _id, _creationTime, _doc, ${keyColumns} FROM ${from?.sql ?? sqlTable(table)}` +
      (where.length > 0 ? ` WHERE ${where.join(" AND ")}` : "") +
      ` ORDER BY ${keys.map((expression) => `${expression} ${direction}`).join(", ")}`;
    const { filters } = state;
    for (const row of this.#execute(statement, bindings)) {
      if (budget !== undefined) {
        if (budget.left === 0) {
          budget.spent = true;
          return;
        }
        budget.left--;
        budget.scanned++;
        budget.lastKey = rowKey(row, keys.length);
      }
      let presented = present(row);
      if (presented instanceof Promise) presented = await presented;
      if (presented === null) continue;
      const { doc } = presented;
      // RLS first: a filter predicate must never see a row the caller may not read.
      let readable = canRead(doc, presented.pending.length > 0);
      if (readable instanceof Promise) readable = await readable;
      if (!readable) continue;
      if (filters.length > 0 && !filters.every((predicate) => predicate(doc))) continue;
      if (visit(doc, row) === true) return;
    }
  }

  /** Runs one statement of this query (see `#unlessBuilding`). */
  #execute(statement: string, bindings: SqlStorageValue[]): Iterable<StoredRow> {
    return this.#unlessBuilding(() => this.#source.sql.exec<StoredRow>(statement, ...bindings));
  }

  /** Runs `read`; a search index not built yet is a 503 to retry, not a SQLite error. */
  #unlessBuilding<T>(read: () => T): T {
    const { search } = this.#state;
    try {
      return read();
    } catch (error) {
      if (search && String(error).includes(`no such table: ${search.fts}`))
        throw searchIndexBuilding(search.index);
      throw error;
    }
  }
}
