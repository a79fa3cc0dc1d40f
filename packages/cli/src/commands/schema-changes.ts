import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import {
  type AppDescription,
  changesNeedingMigration,
  type SchemaCheck,
  schemaVersion,
  uncoveredMessage,
} from "@svc/server/codegen";
import { parseSchemaJson } from "../emit/schema.ts";
import { SvcCliError } from "../errors.ts";

/** Where codegen records the schema it saw, relative to the app. */
export const SCHEMA_RECORD = "svc/_generated/schema.json";

/**
 * Compares the app's schema with the one recorded in
 * `svc/_generated/schema.json`: logs each change (compatible ones included,
 * and which migration covers each breaking one) and fails with
 * `SCHEMA_CHANGE_NEEDS_MIGRATION`, naming the table, the change and the
 * migration to write, when a change stored documents may violate has no new
 * migration of its table. Answers the new version and the check, or `null`
 * for an app without `svc/schema.ts`.
 *
 * @example const checked = await checkSchemaChanges("examples/app", description, console.error);
 */
export async function checkSchemaChanges(
  appDir: string,
  description: Pick<AppDescription, "schema" | "migrations">,
  log: (line: string) => void,
): Promise<(SchemaCheck & { version: string }) | null> {
  if (description.schema === null) return null;
  const file = path.join(appDir, SCHEMA_RECORD);
  const recorded = existsSync(file)
    ? parseSchemaJson(await readFile(file, "utf8"), SCHEMA_RECORD)
    : null;
  const check = changesNeedingMigration(recorded, description.schema, description.migrations);
  if (check.uncovered.length > 0) {
    throw new SvcCliError("SCHEMA_CHANGE_NEEDS_MIGRATION", uncoveredMessage(check.uncovered));
  }
  for (const change of check.changes) {
    const covered = check.breaking.find(
      (breaking) => breaking.table === change.table && breaking.detail === change.detail,
    )?.coveredBy;
    log(
      `svc codegen: schema: table "${change.table}": ${change.detail}${covered ? ` (migration ${covered})` : ""}`,
    );
  }
  return { ...check, version: await schemaVersion(description.schema) };
}
