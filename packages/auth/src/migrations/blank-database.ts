import {
  DummyDriver,
  Kysely,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from "kysely";

/**
 * A SQLite database with no tables that never touches storage: Kysely's
 * compile-only `DummyDriver` answers every query with no rows. Diffing a
 * schema against it yields the DDL for a fresh database, which is what
 * `compileMigrationsSql` needs when no database is given.
 */
export function blankSqliteDatabase(): { db: Kysely<Record<string, never>>; type: "sqlite" } {
  return {
    type: "sqlite",
    db: new Kysely({
      dialect: {
        createAdapter: () => new SqliteAdapter(),
        createDriver: () => new DummyDriver(),
        createIntrospector: (db) => new SqliteIntrospector(db),
        createQueryCompiler: () => new SqliteQueryCompiler(),
      },
    }),
  };
}
