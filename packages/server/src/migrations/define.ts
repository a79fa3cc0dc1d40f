import type { DatabaseReader } from "../db/types.ts";
import type { DataModelFromRegister } from "../schema/data-model.ts";
import type { Id } from "../values/index.ts";

/** Marks migration values so discovery and `createShard` can tell them from other exports. */
export const MIGRATION_BRAND: unique symbol = Symbol.for("svc.migration");
const REPLACEMENT_BRAND: unique symbol = Symbol.for("svc.migration.replacement");

/** What `migrateOne` sees besides the document. */
export interface MigrationCtx {
  /** Reads documents as they are stored (not migrated on the fly), RLS bypassed. */
  db: DatabaseReader;
  /** The shard being migrated. */
  shardKey: string;
}

/** A document as stored before the migration: its old fields are not known to the types. */
export type StoredDocumentOf<Table extends string> = {
  _id: Id<Table>;
  _creationTime: number;
  [field: string]: unknown;
};

/** A whole new set of fields for a document, made by {@link replaceWith}. */
export interface Replacement<Fields> {
  readonly [REPLACEMENT_BRAND]: true;
  readonly fields: Fields;
}

/**
 * What `migrateOne` answers for one document:
 * - `undefined` (or nothing): leave it as it is;
 * - a plain object: a patch, shallow-merged like `ctx.db.patch` (a field set
 *   to `undefined` is removed, which is how an old field goes away);
 * - `replaceWith(fields)`: the document's fields become exactly `fields`;
 * - `"delete"`: delete the document.
 *
 * `null` is refused (an error for that document), so a forgotten `return`
 * value never deletes data.
 */
export type MigrationOutcome<Fields> =
  | (Partial<Fields> & Record<string, unknown>)
  | Replacement<Fields>
  | "delete"
  | undefined;

type TableName = keyof DataModelFromRegister & string;
type FieldsOf<T extends string> = T extends TableName
  ? DataModelFromRegister[T] extends { fields: infer F }
    ? F
    : Record<string, unknown>
  : Record<string, unknown>;

/**
 * The options of a migration of each table, as a union discriminated by
 * `table` (not a type parameter): TypeScript then types `migrateOne`'s answer
 * from the table before checking it, so `{ event: "message_posted" }` keeps
 * its literal type.
 */
type OptionsOfSomeTable = { [T in TableName]: MigrationOptions<T> }[TableName];

/** Options of {@link defineMigration} for a table of the schema. */
export interface MigrationOptions<Table extends string> {
  /** The table whose documents are migrated. */
  table: Table;
  /** Turns one stored document into its new shape; may be async (it may read with `ctx.db`). */
  migrateOne(
    ctx: MigrationCtx,
    doc: StoredDocumentOf<Table>,
  ): MigrationOutcome<FieldsOf<Table>> | Promise<MigrationOutcome<FieldsOf<Table>>>;
  /**
   * What a document whose `migrateOne` throws (or answers an invalid document)
   * does to the run: `"stop"` stops it at that document (nothing after it is
   * migrated until the next run); `"skip"` leaves the document as it was,
   * records its id, and goes on. Either way the error names the id.
   * @default "stop"
   */
  onError?: "stop" | "skip";
  /** Most documents per batch (one transaction); a batch also ends after 50 ms. @default 500 */
  batchSize?: number;
}

/** Options of {@link defineMigration} that remove a table the schema no longer declares. */
export interface DropTableOptions {
  /** A table that is no longer in the schema. */
  table: string;
  /** Deletes every document of the table, batch by batch, then the table itself. */
  drop: true;
  /** Most documents deleted per batch. @default 500 */
  batchSize?: number;
}

/** A migration, as `svc/migrations/<name>.ts` exports it by default. */
export interface Migration {
  readonly [MIGRATION_BRAND]: true;
  readonly table: string;
  /** `true` for a table removal ({@link DropTableOptions}). */
  readonly drop: boolean;
  readonly onError: "stop" | "skip";
  readonly batchSize: number;
  readonly migrateOne: (
    ctx: MigrationCtx,
    doc: StoredDocumentOf<string>,
  ) => unknown | Promise<unknown>;
}

/** The app's migrations by name (the file name under `svc/migrations/`), as codegen emits them. */
export type MigrationRegistry = Readonly<Record<string, Migration>>;

const DEFAULT_BATCH_SIZE = 500;
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

/**
 * Declares an online data migration: each shard runs `migrateOne` over every
 * document of `table` stored before the migration was deployed, in batched
 * transactions, resuming where it stopped after an eviction. Until a
 * document's turn comes, reads present it migrated, so handlers only ever see
 * documents that match the schema. Export it by default from
 * `svc/migrations/<name>.ts`; names run in sorted order (date-prefix them).
 *
 * @example
 * ```ts
 * // svc/migrations/2026-11-28-message-title.ts
 * export default defineMigration({
 *   table: "messages",
 *   migrateOne: (_ctx, doc) => ({ title: String(doc.body).slice(0, 40) }),
 * });
 * ```
 * @see ../../../../docs/data-lifecycle.md
 */
export function defineMigration(options: OptionsOfSomeTable | DropTableOptions): Migration {
  const { table } = options;
  if (typeof table !== "string" || table === "")
    throw new Error("svc: defineMigration needs table (the name of a table)");
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10_000)
    throw new Error("svc: defineMigration batchSize must be an integer from 1 to 10000");
  if ("drop" in options && options.drop === true) {
    return Object.freeze({
      [MIGRATION_BRAND]: true as const,
      table,
      drop: true,
      onError: "stop" as const,
      batchSize,
      migrateOne: () => "delete" as const,
    });
  }
  const { migrateOne, onError = "stop" } = options as MigrationOptions<string>;
  if (typeof migrateOne !== "function")
    throw new Error(
      `svc: the migration of ${table} needs migrateOne(ctx, doc) (or drop: true to remove the table)`,
    );
  if (onError !== "stop" && onError !== "skip")
    throw new Error('svc: defineMigration onError must be "stop" or "skip"');
  return Object.freeze({
    [MIGRATION_BRAND]: true as const,
    table,
    drop: false,
    onError,
    batchSize,
    migrateOne: migrateOne as Migration["migrateOne"],
  });
}

/**
 * Answers a whole new set of fields from `migrateOne` (instead of a patch):
 * every field not in `fields` is dropped.
 *
 * @example migrateOne: (_ctx, doc) => replaceWith({ text: String(doc.body) })
 */
export function replaceWith<Fields extends Record<string, unknown>>(
  fields: Fields,
): Replacement<Fields> {
  return Object.freeze({ [REPLACEMENT_BRAND]: true as const, fields });
}

/** True when `value` is a {@link Replacement}. */
export function isReplacement(value: unknown): value is Replacement<Record<string, unknown>> {
  return typeof value === "object" && value !== null && REPLACEMENT_BRAND in value;
}

/** True when `value` is a migration made by {@link defineMigration}. */
export function isMigration(value: unknown): value is Migration {
  return typeof value === "object" && value !== null && MIGRATION_BRAND in value;
}

/**
 * Checks a registry against the schema's tables: names are file-name safe,
 * each migration names a table of the schema (a `drop` one, a table that is
 * no longer in it). Called by `createShard` and codegen, so a mistake fails
 * at start, not halfway through a run.
 */
export function checkMigrations(migrations: MigrationRegistry, tables: ReadonlySet<string>): void {
  for (const [name, migration] of Object.entries(migrations)) {
    if (!NAME.test(name))
      throw new Error(
        `svc: migration name ${JSON.stringify(name)} must be letters, digits, ".", "_" and "-" (at most 128)`,
      );
    if (!isMigration(migration))
      throw new Error(`svc: migrations[${JSON.stringify(name)}] is not a defineMigration(...)`);
    if (migration.drop && tables.has(migration.table))
      throw new Error(
        `svc: migration ${name} drops table ${migration.table}, which the schema still declares`,
      );
    if (!migration.drop && !tables.has(migration.table))
      throw new Error(
        `svc: migration ${name} names table ${migration.table}, which is not in the schema (to remove a table, use defineMigration({ table, drop: true }))`,
      );
  }
}
