import type { SearchIndexSpec } from "../../schema/search-index.ts";
import type { PaginationOptions, PaginationResult } from "../pagination.ts";

/** The value type of `Field` in `Doc` (`unknown` before codegen typed the schema). */
type FieldValue<Doc, Field extends string> = string extends keyof Doc
  ? unknown
  : Field extends keyof Doc
    ? Exclude<Doc[Field], undefined>
    : never;

/**
 * What a `withSearchIndex` callback returns: a search, with or without filters.
 *
 * @example const filter = (q: SearchFilterBuilder<Doc, Spec>): SearchFilterState => q.search("body", "hi");
 */
export interface SearchFilterState {
  /** Type-level marker only: filters come from the builder, not from literals. */
  readonly __searchFilter?: never;
}

/**
 * The first step of `withSearchIndex(name, q => ...)`: the text to look for,
 * in the index's search field (the only field it accepts).
 *
 * @example
 * ```ts
 * ctx.db.query("messages").withSearchIndex("search_body", (q) => q.search("body", "hello wor"));
 * // q.search("author", "x") does not compile: author is not the index's search field.
 * ```
 */
export interface SearchFilterBuilder<Doc, Spec extends SearchIndexSpec> {
  search(
    field: Spec["searchField"],
    text: string,
  ): SearchFilterFinalizer<Doc, Spec["filterFields"][number]>;
}

/**
 * After `search`: equalities on the index's filter fields, each with a value
 * of that field's type.
 *
 * @example
 * ```ts
 * q.search("body", "deploy").eq("channel", "ops");
 * ```
 */
export interface SearchFilterFinalizer<Doc, FilterField extends string> extends SearchFilterState {
  eq<Field extends FilterField>(
    field: Field,
    value: FieldValue<Doc, Field>,
  ): SearchFilterFinalizer<Doc, FilterField>;
}

/**
 * A search: documents matching every word (the last one as a prefix), most
 * relevant first (BM25), ties by creation time then id. Rows hidden by RLS
 * never appear. No `order`: relevance is the order.
 *
 * @example
 * ```ts
 * const hits = await ctx.db
 *   .query("messages")
 *   .withSearchIndex("search_body", (q) => q.search("body", args.text))
 *   .take(10);
 * ```
 */
export interface SearchQuery<Doc> {
  /** Keeps rows for which `predicate` is true (applied after the search and RLS). */
  filter(predicate: (doc: Doc) => boolean): SearchQuery<Doc>;
  take(n: number): Promise<Doc[]>;
  first(): Promise<Doc | null>;
  /** The one matching row, `null` for none; more than one is an error. */
  unique(): Promise<Doc | null>;
  collect(): Promise<Doc[]>;
  paginate(options: PaginationOptions): Promise<PaginationResult<Doc>>;
}

/**
 * The filter builder of search index `Spec` (any spec before codegen typed the schema).
 *
 * @example type Q = SearchFilterOf<Message, { searchField: "body"; filterFields: ["channel"] }>;
 */
export type SearchFilterOf<Doc, Spec> = SearchFilterBuilder<
  Doc,
  Spec extends SearchIndexSpec ? Spec : SearchIndexSpec
>;
