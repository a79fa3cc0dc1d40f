import type { SchemaDefinition, TableDefinition } from "../schema/define.ts";
import type { Id, ObjectType, Shape } from "../values/index.ts";

/**
 * Declaration-merging hook: `svc codegen` writes
 * `declare module "@svc/server" { interface Register { schema: typeof schema } }`
 * so `ctx.db` is typed against the app's tables.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging in generated code
export interface Register {}

/** One table as the database API sees it. */
export interface TableModel {
  document: Record<string, unknown> & { _id: string; _creationTime: number };
  fields: Record<string, unknown>;
  indexes: Record<string, readonly string[]>;
}

/** Table name → model. */
export type GenericDataModel = Record<string, TableModel>;

/** The data model a schema describes. */
export type DataModelOf<S> =
  S extends SchemaDefinition<infer Tables>
    ? {
        [T in keyof Tables & string]: Tables[T] extends TableDefinition<
          infer Fields extends Shape,
          infer Indexes
        >
          ? {
              document: ObjectType<Fields> & { _id: Id<T>; _creationTime: number };
              fields: ObjectType<Fields>;
              indexes: Indexes;
            }
          : never;
      }
    : GenericDataModel;

/** The registered app's data model, or a generic one before codegen ran. */
export type DataModelFromRegister = Register extends { schema: infer S }
  ? DataModelOf<S>
  : GenericDataModel;

type Tables<DM> = keyof DM & string;
type DocOf<DM, T extends Tables<DM>> = DM[T] extends { document: infer D } ? D : never;
type FieldsOf<DM, T extends Tables<DM>> = DM[T] extends { fields: infer F } ? F : never;
type IndexesOf<DM, T extends Tables<DM>> = DM[T] extends { indexes: infer I } ? I : never;
type IdArg<DM, T extends Tables<DM>> = Id<T> | (DM extends GenericDataModel ? string : never);

/** Bounds on an index: equality on a prefix of its fields, then a range on the next. */
export interface IndexRange<Fields extends string> {
  eq(field: Fields | "_creationTime", value: unknown): IndexRange<Fields>;
  gt(field: Fields | "_creationTime", value: unknown): IndexRange<Fields>;
  gte(field: Fields | "_creationTime", value: unknown): IndexRange<Fields>;
  lt(field: Fields | "_creationTime", value: unknown): IndexRange<Fields>;
  lte(field: Fields | "_creationTime", value: unknown): IndexRange<Fields>;
}

/** Options of `paginate`: where to continue and how many visible rows to return. */
export interface PaginationOptions {
  cursor: string | null;
  numItems: number;
}

/** One page; pass `continueCursor` back to get the next. */
export interface PaginationResult<Doc> {
  page: Doc[];
  isDone: boolean;
  continueCursor: string;
}

/** A query over one table. Rows hidden by RLS never appear. */
export interface Query<Doc> {
  /** `asc` (default) or `desc` by the index keys, then `_creationTime`. */
  order(order: "asc" | "desc"): Query<Doc>;
  /** Keeps rows for which `predicate` is true (applied after the index range). */
  filter(predicate: (doc: Doc) => boolean): Query<Doc>;
  take(n: number): Promise<Doc[]>;
  first(): Promise<Doc | null>;
  /** The one matching row, `null` for none; more than one is an error. */
  unique(): Promise<Doc | null>;
  collect(): Promise<Doc[]>;
  paginate(options: PaginationOptions): Promise<PaginationResult<Doc>>;
}

/** `ctx.db.query(table)`: choose an index, or query by creation time. */
export interface QueryInitializer<Doc, Indexes> extends Query<Doc> {
  withIndex<Name extends keyof Indexes & string>(
    name: Name,
    range?: (
      q: IndexRange<Indexes[Name] extends readonly (infer F extends string)[] ? F : string>,
    ) => IndexRange<string>,
  ): Query<Doc>;
}

/** `ctx.db` in queries and streams. */
export interface DatabaseReader<DM = GenericDataModel> {
  /** The document with this id, or `null` when absent or hidden by RLS. */
  get<T extends Tables<DM>>(id: IdArg<DM, T>): Promise<DocOf<DM, T> | null>;
  query<T extends Tables<DM>>(table: T): QueryInitializer<DocOf<DM, T>, IndexesOf<DM, T>>;
}

/** `ctx.db` in mutations: every write is validated against the table and checked by RLS. */
export interface DatabaseWriter<DM = GenericDataModel> extends DatabaseReader<DM> {
  insert<T extends Tables<DM>>(table: T, doc: FieldsOf<DM, T>): Promise<Id<T>>;
  /** Shallow-merges `fields`; a field set to `undefined` is removed. */
  patch<T extends Tables<DM>>(id: IdArg<DM, T>, fields: Partial<FieldsOf<DM, T>>): Promise<void>;
  replace<T extends Tables<DM>>(id: IdArg<DM, T>, doc: FieldsOf<DM, T>): Promise<void>;
  delete(id: string): Promise<void>;
}
