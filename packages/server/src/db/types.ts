import type { GenericDataModel } from "../schema/data-model.ts";
import type { Id } from "../values/index.ts";
import type { SearchFilterOf, SearchFilterState, SearchQuery } from "./search/types.ts";

export type { PaginationOptions, PaginationResult } from "./pagination.ts";

type Tables<DM> = keyof DM & string;
type DocOf<DM, T extends Tables<DM>> = DM[T] extends { document: infer D } ? D : never;
type FieldsOf<DM, T extends Tables<DM>> = DM[T] extends { fields: infer F } ? F : never;
type IndexesOf<DM, T extends Tables<DM>> = DM[T] extends { indexes: infer I } ? I : never;
type SearchIndexesOf<DM, T extends Tables<DM>> = DM[T] extends { searchIndexes: infer S }
  ? S
  : never;
// Plain strings only before codegen typed the schema (table names are then just `string`);
// a specific data model still fits GenericDataModel structurally, so test the keys.
type IdArg<DM, T extends Tables<DM>> = Id<T> | (string extends Tables<DM> ? string : never);

/** The value type of `Field` in `Doc` (`unknown` before codegen typed the schema). */
type FieldValue<Doc, Field extends string> = string extends keyof Doc
  ? unknown
  : Field extends keyof Doc
    ? Exclude<Doc[Field], undefined>
    : never;

type Head<Keys extends readonly string[]> = Keys extends readonly [
  infer First extends string,
  ...string[],
]
  ? First
  : Keys extends readonly (infer Any extends string)[]
    ? Any
    : never;
type Tail<Keys extends readonly string[]> = Keys extends readonly [
  string,
  ...infer Rest extends string[],
]
  ? Rest
  : Keys;

/** What a `withIndex` range callback returns: any state of the range builder. */
export interface IndexRangeState {
  /** Type-level marker only: ranges come from the builder, not from literals. */
  readonly __indexRange?: never;
}

/**
 * Bounds on an index, typed by its fields in index order (as Convex's index
 * range builder is): `eq` on each field in turn, with a value of that
 * field's type, then at most one lower and one upper bound on the next
 * field. `Keys` is the index's fields followed by `_creationTime`.
 *
 * @example
 * ```ts
 * ctx.db.query("messages").withIndex("by_channel", (q) => q.eq("channel", "general"));
 * // q.eq("channel", 123) does not compile: channel is a string.
 * ```
 */
export interface IndexRange<Doc, Keys extends readonly string[]> extends IndexRangeState {
  eq(field: Head<Keys>, value: FieldValue<Doc, Head<Keys>>): IndexRange<Doc, Tail<Keys>>;
  gt(field: Head<Keys>, value: FieldValue<Doc, Head<Keys>>): LowerBounded<Doc, Head<Keys>>;
  gte(field: Head<Keys>, value: FieldValue<Doc, Head<Keys>>): LowerBounded<Doc, Head<Keys>>;
  lt(field: Head<Keys>, value: FieldValue<Doc, Head<Keys>>): IndexRangeState;
  lte(field: Head<Keys>, value: FieldValue<Doc, Head<Keys>>): IndexRangeState;
}

/** After a lower bound on `Field`: optionally an upper bound on the same field. */
export interface LowerBounded<Doc, Field extends string> extends IndexRangeState {
  lt(field: Field, value: FieldValue<Doc, Field>): IndexRangeState;
  lte(field: Field, value: FieldValue<Doc, Field>): IndexRangeState;
}

/** A query over one table. Rows hidden by RLS never appear. */
export interface Query<Doc> extends SearchQuery<Doc> {
  /** `asc` (default) or `desc` by the index keys, then `_creationTime`. */
  order(order: "asc" | "desc"): Query<Doc>;
  /** Keeps rows for which `predicate` is true (applied after the index range). */
  filter(predicate: (doc: Doc) => boolean): Query<Doc>;
}

/**
 * `ctx.db.query(table)`: choose an index, or query by creation time. Every
 * table also has the built-in index `by_creation_time`, whose only key is
 * `_creationTime` (a range over creation times).
 */
export interface QueryInitializer<Doc, Indexes, SearchIndexes = Record<never, never>>
  extends Query<Doc> {
  withIndex<Name extends (keyof Indexes & string) | "by_creation_time">(
    name: Name,
    range?: (
      q: IndexRange<
        Doc,
        Name extends keyof Indexes
          ? Indexes[Name] extends readonly string[]
            ? [...Indexes[Name], "_creationTime"]
            : string[]
          : ["_creationTime"]
      >,
    ) => IndexRangeState,
  ): Query<Doc>;
  /**
   * Searches the words of a search index's field, most relevant first
   * (docs/search.md). User text is always searched as words, never as
   * query syntax.
   */
  withSearchIndex<Name extends keyof SearchIndexes & string>(
    name: Name,
    filter: (q: SearchFilterOf<Doc, SearchIndexes[Name]>) => SearchFilterState,
  ): SearchQuery<Doc>;
}

/** `ctx.db` in queries and streams. */
export interface DatabaseReader<DM = GenericDataModel> {
  /** The document with this id, or `null` when absent or hidden by RLS. */
  get<T extends Tables<DM>>(id: IdArg<DM, T>): Promise<DocOf<DM, T> | null>;
  query<T extends Tables<DM>>(
    table: T,
  ): QueryInitializer<DocOf<DM, T>, IndexesOf<DM, T>, SearchIndexesOf<DM, T>>;
}

/** `ctx.db` in mutations: every write is validated against the table and checked by RLS. */
export interface DatabaseWriter<DM = GenericDataModel> extends DatabaseReader<DM> {
  insert<T extends Tables<DM>>(table: T, doc: FieldsOf<DM, T>): Promise<Id<T>>;
  /** Shallow-merges `fields`; a field set to `undefined` is removed. */
  patch<T extends Tables<DM>>(id: IdArg<DM, T>, fields: Partial<FieldsOf<DM, T>>): Promise<void>;
  replace<T extends Tables<DM>>(id: IdArg<DM, T>, doc: FieldsOf<DM, T>): Promise<void>;
  /** Deletes a document of any table by its id (typed: `Id<"table">`). */
  delete<T extends Tables<DM>>(id: IdArg<DM, T>): Promise<void>;
}
