import {
  DummyDriver,
  Kysely,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from "kysely";

const blanks = new WeakSet<object>();

/**
 * Whether `database` came from {@link blankSqliteDatabase}: a fresh schema,
 * with nothing to drop and no rows to fill indexes from.
 *
 * @example
 * ```ts
 * if (isBlankSqliteDatabase(options.database)) return createStatements;
 * ```
 */
export function isBlankSqliteDatabase(database: unknown): boolean {
  return typeof database === "object" && database !== null && blanks.has(database);
}

/**
 * A SQLite database with no tables that never touches storage: Kysely's
 * compile-only `DummyDriver` answers every query with no rows. Diffing a
 * schema against it yields the DDL for a fresh database, which is what
 * `compileMigrationsSql` needs when no database is given.
 */
export function blankSqliteDatabase(): { db: Kysely<Record<string, never>>; type: "sqlite" } {
  const database = {
    type: "sqlite" as const,
    db: new Kysely<Record<string, never>>({
      dialect: {
        createAdapter: () => new SqliteAdapter(),
        createDriver: () => new DummyDriver(),
        createIntrospector: (db) => new SqliteIntrospector(db),
        createQueryCompiler: () => new SqliteQueryCompiler(),
      },
    }),
  };
  blanks.add(database);
  return database;
}
