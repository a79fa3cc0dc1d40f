import type { MigrationManifest, RecordedSchema, SchemaSnapshot } from "@svc/server/codegen";
import { GENERATED_NOTE } from "./header.ts";

/** `svc/_generated/schema.json` as codegen writes and reads it. */
export interface SchemaFile extends RecordedSchema {
  $comment: string;
  /** The schema version shards record in `_svc_meta` once they applied it. */
  version: string;
}

/**
 * `_generated/schema.json`: the schema codegen saw (tables, fields with their
 * validators, indexes), its version and the migrations that existed, so the
 * next run can tell what changed and whether a new migration covers it.
 * Checked in: it is the baseline reviewers see change in a pull request.
 */
export function emitSchemaJson(
  snapshot: SchemaSnapshot,
  version: string,
  migrations: readonly MigrationManifest[],
): string {
  const file: SchemaFile = {
    $comment: GENERATED_NOTE,
    version,
    tables: snapshot.tables,
    migrations: migrations.map((migration) => migration.name),
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** Reads the recorded schema; a file that is not one fails with its path and the way out. */
export function parseSchemaJson(text: string, file: string): RecordedSchema {
  try {
    const parsed = JSON.parse(text) as Partial<SchemaFile>;
    if (typeof parsed.tables !== "object" || parsed.tables === null) throw new Error("no tables");
    return {
      tables: parsed.tables,
      migrations: Array.isArray(parsed.migrations) ? parsed.migrations.map(String) : [],
    };
  } catch (error) {
    throw new Error(
      `svc codegen: ${file} is not a schema record (${error instanceof Error ? error.message : String(error)}); restore it from version control, or delete it to record the current schema as the baseline`,
    );
  }
}
