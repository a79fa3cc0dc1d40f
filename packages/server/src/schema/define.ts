import { type ObjectType, type ObjectValidator, type Shape, v } from "../values/index.ts";
import type { TablePolicies } from "./policy.ts";
import { isRule, ruleFields } from "./rule.ts";
import { checkSearchIndex, type SearchIndexOptions, type SearchIndexSpec } from "./search-index.ts";

const IDENTIFIER = /^[A-Za-z][A-Za-z0-9_]*$/;
const FIELD_PATH = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;
const SYSTEM_FIELDS = new Set(["_id", "_creationTime"]);
/**
 * Names svc keeps for its own SQLite objects in a shard (registry rows,
 * migration progress, the applied schema version): no app table or index may
 * start with it, whatever its case.
 */
export const RESERVED_PREFIX = "_svc";

function refuseReserved(kind: "table" | "index", name: string): void {
  if (typeof name === "string" && name.toLowerCase().startsWith(RESERVED_PREFIX)) {
    throw new Error(
      `svc: ${kind} name ${JSON.stringify(name)} is reserved: names starting with "${RESERVED_PREFIX}" belong to svc (docs/procedures.md)`,
    );
  }
}

/** Fields svc adds to every stored document. */
export interface SystemFields {
  _id: string;
  _creationTime: number;
}

/** A stored document of a table with fields `S`. */
export type StoredDocument<S extends Shape> = ObjectType<S> & SystemFields;

/** A table: its fields, indexes, search indexes and row-level security policies. Immutable. */
export interface TableDefinition<
  S extends Shape = Shape,
  Indexes extends Record<string, readonly string[]> = Record<string, readonly string[]>,
  SearchIndexes extends Record<string, SearchIndexSpec> = Record<string, SearchIndexSpec>,
> {
  readonly fields: S;
  /** Validates documents on every write (system fields excluded). */
  readonly validator: ObjectValidator<S>;
  readonly indexes: Indexes;
  /** Text search indexes by name (docs/search.md). */
  readonly searchIndexes: SearchIndexes;
  /** `undefined` when the table declares no policy (then RLS does not restrict it). */
  readonly policies: TablePolicies<StoredDocument<S>> | undefined;
  /**
   * Adds an index over `fields` (in order); queries use it with `withIndex`.
   * `_creationTime` is implicitly the last key of every index.
   */
  index<Name extends string, const Fields extends readonly (keyof S & string)[]>(
    name: Name,
    fields: Fields,
  ): TableDefinition<S, Indexes & Record<Name, Fields>, SearchIndexes>;
  /**
   * Adds a text search index over the words of `searchField`; queries use it
   * with `withSearchIndex`, ranked by relevance, optionally narrowed by
   * equality on `filterFields` (docs/search.md).
   */
  searchIndex<
    Name extends string,
    SearchField extends keyof S & string,
    const FilterFields extends readonly (keyof S & string)[] = readonly [],
  >(
    name: Name,
    options: SearchIndexOptions<SearchField, FilterFields>,
  ): TableDefinition<
    S,
    Indexes,
    SearchIndexes & Record<Name, SearchIndexSpec<SearchField, FilterFields>>
  >;
  /**
   * Row-level security for the table. Once a policy is declared, every
   * operation it does not list is refused (default closed).
   */
  policy(policies: TablePolicies<StoredDocument<S>>): TableDefinition<S, Indexes, SearchIndexes>;
}

/**
 * Declares a table from its field validators.
 *
 * @example
 * ```ts
 * defineTable({ author: v.string(), body: v.string() })
 *   .index("by_author", ["author"])
 *   .searchIndex("search_body", { searchField: "body", filterFields: ["author"] })
 *   .policy({ read: (ctx, doc) => doc.author === ctx.auth.userId })
 * ```
 */
export function defineTable<S extends Shape>(
  fields: S,
): TableDefinition<S, Record<never, never>, Record<never, never>> {
  for (const name of Object.keys(fields)) {
    if (SYSTEM_FIELDS.has(name)) throw new Error(`svc: field ${name} is reserved for the system`);
    if (!FIELD_PATH.test(name))
      throw new Error(`svc: field name ${JSON.stringify(name)} is not an identifier`);
  }
  return makeTable(fields, {}, {}, undefined) as TableDefinition<
    S,
    Record<never, never>,
    Record<never, never>
  >;
}

function makeTable<S extends Shape>(
  fields: S,
  indexes: Record<string, readonly string[]>,
  searchIndexes: Record<string, SearchIndexSpec>,
  policies: TablePolicies<StoredDocument<S>> | undefined,
): TableDefinition<S> {
  /** Index and search index names share one namespace, as query errors name either. */
  const checkIndexName = (name: string) => {
    refuseReserved("index", name);
    if (!IDENTIFIER.test(name))
      throw new Error(`svc: index name ${JSON.stringify(name)} is not an identifier`);
    if (name === "by_creation_time")
      throw new Error("svc: by_creation_time is the built-in index of every table");
    if (Object.hasOwn(indexes, name) || Object.hasOwn(searchIndexes, name))
      throw new Error(`svc: index ${name} is declared twice`);
  };
  return Object.freeze({
    fields,
    validator: v.object(fields),
    indexes,
    searchIndexes,
    policies,
    index(name: string, indexFields: readonly string[]) {
      checkIndexName(name);
      if (indexFields.length === 0) throw new Error(`svc: index ${name} needs at least one field`);
      for (const field of indexFields) {
        if (!FIELD_PATH.test(field))
          throw new Error(`svc: index ${name} names bad field ${JSON.stringify(field)}`);
      }
      const next = { ...indexes, [name]: Object.freeze([...indexFields]) };
      return makeTable(fields, next, searchIndexes, policies);
    },
    searchIndex(name: string, options: SearchIndexOptions<string, readonly string[]>) {
      checkIndexName(name);
      const spec = checkSearchIndex(name, options, (field) => Object.hasOwn(fields, field));
      return makeTable(fields, indexes, { ...searchIndexes, [name]: spec }, policies);
    },
    policy(next: TablePolicies<StoredDocument<S>>) {
      for (const [operation, entry] of Object.entries(next)) {
        if (!isRule(entry)) continue;
        for (const field of ruleFields(entry)) {
          const root = field.split(".")[0] ?? "";
          if (
            !FIELD_PATH.test(field) ||
            (!Object.hasOwn(fields, root) && !SYSTEM_FIELDS.has(field))
          )
            throw new Error(
              `svc: the ${operation} rule names ${JSON.stringify(field)}, which is not a field of the table`,
            );
        }
      }
      return makeTable(fields, indexes, searchIndexes, Object.freeze({ ...next }));
    },
  }) as TableDefinition<S>;
}

/** Any table, whatever its fields: what a schema holds. */
export interface AnyTableDefinition {
  readonly fields: Shape;
  readonly validator: ObjectValidator<Shape>;
  readonly indexes: Record<string, readonly string[]>;
  readonly searchIndexes: Record<string, SearchIndexSpec>;
  readonly policies: TablePolicies<never> | undefined;
}

/** The tables of an app. */
export type SchemaDefinition<
  Tables extends Record<string, AnyTableDefinition> = Record<string, AnyTableDefinition>,
> = {
  readonly tables: Tables;
};

/**
 * Declares the app's tables. Export it as the default of `svc/schema.ts`.
 *
 * @example
 * ```ts
 * export default defineSchema({ messages: defineTable({ body: v.string() }) });
 * ```
 */
export function defineSchema<Tables extends Record<string, AnyTableDefinition>>(
  tables: Tables,
): SchemaDefinition<Tables> {
  for (const name of Object.keys(tables)) {
    refuseReserved("table", name);
    if (!IDENTIFIER.test(name))
      throw new Error(`svc: table name ${JSON.stringify(name)} is not an identifier`);
  }
  return Object.freeze({ tables });
}
