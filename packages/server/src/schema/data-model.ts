import type { Id, ObjectType, Shape } from "../values/index.ts";
import type { SchemaDefinition, TableDefinition } from "./define.ts";
import type { SearchIndexSpec } from "./search-index.ts";

/**
 * Declaration-merging hook: `svc codegen` writes
 * `declare module "@svc/server" { interface Register { schema: typeof schema } }`
 * so `ctx.db` is typed against the app's tables.
 *
 * @example
 * ```ts
 * declare module "@svc/server" {
 *   interface Register { schema: typeof schema }
 * }
 * ```
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging in generated code
export interface Register {}

/**
 * One table as the database API sees it: the stored document, the writable
 * fields, the indexes and the search indexes by name.
 *
 * @example
 * ```ts
 * type Messages = { document: { _id: string; _creationTime: number; body: string }; fields: { body: string }; indexes: {}; searchIndexes: {} };
 * ```
 */
export interface TableModel {
  document: Record<string, unknown> & { _id: string; _creationTime: number };
  fields: Record<string, unknown>;
  indexes: Record<string, readonly string[]>;
  searchIndexes: Record<string, SearchIndexSpec>;
}

/**
 * Table name → model: what `ctx.db` is typed against before codegen named
 * the app's tables.
 *
 * @example const tables: GenericDataModel = {};
 */
export type GenericDataModel = Record<string, TableModel>;

/**
 * The data model a schema describes, so `ctx.db` knows each table's fields
 * and indexes.
 *
 * @example type DM = DataModelOf<typeof schema>; // DM["messages"]["document"]
 */
export type DataModelOf<S> =
  S extends SchemaDefinition<infer Tables>
    ? {
        [T in keyof Tables & string]: Tables[T] extends TableDefinition<
          infer Fields extends Shape,
          infer Indexes,
          infer SearchIndexes
        >
          ? {
              document: ObjectType<Fields> & { _id: Id<T>; _creationTime: number };
              fields: ObjectType<Fields>;
              indexes: Indexes;
              searchIndexes: SearchIndexes;
            }
          : never;
      }
    : GenericDataModel;

/**
 * The registered app's data model, or a generic one before codegen ran: the
 * default of every context's `DM` parameter.
 *
 * @example type Doc = DataModelFromRegister["messages"]["document"];
 */
export type DataModelFromRegister = Register extends { schema: infer S }
  ? DataModelOf<S>
  : GenericDataModel;
