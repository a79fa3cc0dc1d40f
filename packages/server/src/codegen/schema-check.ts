import { compareSchemas, type SchemaChange } from "../schema/changes.ts";
import type { SchemaSnapshot } from "../schema/snapshot.ts";
import type { MigrationManifest } from "./describe.ts";

/** What codegen recorded last time: the schema and the migrations that existed then. */
export interface RecordedSchema extends SchemaSnapshot {
  /** Names of the migrations under `svc/migrations/` at that time. */
  migrations: string[];
}

/** A change stored documents may violate, and the migration that covers it (if any). */
export interface BreakingChange extends SchemaChange {
  /** A migration added since the last record, for the same table; `null` when none covers it. */
  coveredBy: string | null;
}

/** What codegen found comparing the schema with the recorded one. */
export interface SchemaCheck {
  /** Every change, compatible or not. */
  changes: SchemaChange[];
  /** The changes existing documents may violate, each with its covering migration. */
  breaking: BreakingChange[];
  /** Breaking changes no migration covers: codegen fails on these. */
  uncovered: BreakingChange[];
}

/**
 * Compares the schema with the one codegen recorded, and decides which
 * breaking changes a migration covers: a migration added since that record
 * (its name is new) covers every breaking change of its table. A removed
 * table is covered by a `drop` migration of it.
 *
 * @example
 * const { uncovered } = changesNeedingMigration(recorded, snapshot, migrations);
 */
export function changesNeedingMigration(
  recorded: RecordedSchema | null,
  current: SchemaSnapshot,
  migrations: readonly MigrationManifest[],
): SchemaCheck {
  if (recorded === null) return { changes: [], breaking: [], uncovered: [] };
  const changes = compareSchemas(recorded, current);
  const known = new Set(recorded.migrations);
  const added = migrations.filter((migration) => !known.has(migration.name));
  const breaking = changes
    .filter((change) => change.breaking)
    .map((change) => ({
      ...change,
      coveredBy:
        added.find(
          (migration) =>
            migration.table === change.table &&
            migration.drop === (change.kind === "table-removed"),
        )?.name ?? null,
    }));
  return { changes, breaking, uncovered: breaking.filter((change) => change.coveredBy === null) };
}

/**
 * The message `svc codegen` fails with: each uncovered change by table, and
 * the migration to write.
 *
 * @example throw new Error(uncoveredMessage(check.uncovered));
 */
export function uncoveredMessage(uncovered: readonly BreakingChange[]): string {
  const tables = [...new Set(uncovered.map((change) => change.table))];
  const lines = uncovered.map((change) => `  - table "${change.table}": ${change.detail}`);
  const example = tables.find((table) =>
    uncovered.some((c) => c.table === table && c.kind !== "table-removed"),
  );
  const removed = tables.filter((table) =>
    uncovered.some((c) => c.table === table && c.kind === "table-removed"),
  );
  return [
    `svc codegen: svc/schema.ts changes ${tables.length === 1 ? "a table" : "tables"} whose stored documents may not match it, and no migration covers ${uncovered.length === 1 ? "the change" : "these changes"}:`,
    ...lines,
    "Make the change compatible (v.optional(...) for a new field, a wider type), or add a migration",
    "per table as svc/migrations/<date>-<what>.ts (names run in sorted order):",
    ...(example === undefined
      ? []
      : [
          "",
          '  import { defineMigration } from "@svc/server";',
          "  export default defineMigration({",
          `    table: "${example}",`,
          "    migrateOne: (ctx, doc) => ({ /* the new or changed fields */ }),",
          "  });",
          "",
        ]),
    ...removed.map(
      (table) =>
        `A removed table keeps its documents until a migration drops it: defineMigration({ table: "${table}", drop: true }).`,
    ),
    "Then run it in every shard: svc migrations run <name> (docs/data-lifecycle.md).",
  ].join("\n");
}
