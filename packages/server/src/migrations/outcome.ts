import { documentToJson } from "../db/storage.ts";
import type { AnyTableDefinition } from "../schema/define.ts";
import { setOwn } from "../values/own-property.ts";
import { type Issue, toValidationIssues } from "../values/validator.ts";
import { isReplacement, type Migration, type MigrationCtx } from "./define.ts";

type Doc = Record<string, unknown> & { _id: string; _creationTime: number };

/** What one `migrateOne` call does to one document. */
export type MigrationStep =
  | { kind: "unchanged" }
  | { kind: "write"; fields: Record<string, unknown>; json: string }
  | { kind: "delete" };

const SYSTEM_FIELDS = new Set(["_id", "_creationTime"]);

function ownFields(doc: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(doc)) {
    if (!SYSTEM_FIELDS.has(key) && value !== undefined) setOwn(out, key, value);
  }
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Turns what `migrateOne` answered into a step (see `MigrationOutcome` for
 * the four answers). Anything else throws, naming what came back: that is
 * the document's error, never a silent delete. `stored` is the row's JSON
 * as stored (encoded from `doc` when absent): a result that encodes to it is
 * no change.
 */
export function stepOf(doc: Doc, outcome: unknown, stored: string | undefined): MigrationStep {
  if (outcome === undefined) return { kind: "unchanged" };
  if (outcome === "delete") return { kind: "delete" };
  let fields: Record<string, unknown>;
  if (isReplacement(outcome)) {
    if (!isPlainObject(outcome.fields))
      throw new Error("replaceWith(fields) needs a plain object of fields");
    for (const key of Object.keys(outcome.fields))
      if (SYSTEM_FIELDS.has(key)) throw new Error(`${key} is set by the system`);
    fields = ownFields(outcome.fields);
  } else if (isPlainObject(outcome)) {
    fields = ownFields(doc);
    for (const [key, value] of Object.entries(outcome)) {
      if (SYSTEM_FIELDS.has(key)) throw new Error(`${key} is set by the system`);
      if (value === undefined) delete fields[key];
      else setOwn(fields, key, value);
    }
  } else {
    const shown = outcome === null ? "null" : Array.isArray(outcome) ? "an array" : typeof outcome;
    throw new Error(
      `migrateOne answered ${shown}; answer undefined (no change), a patch object, replaceWith(fields) or "delete"`,
    );
  }
  const json = documentToJson(fields);
  const before = stored ?? documentToJson(ownFields(doc));
  return json === before ? { kind: "unchanged" } : { kind: "write", fields, json };
}

/**
 * Runs one migration on one document: its step, or a thrown error. `stored`
 * is the document's JSON as stored (`undefined` when it was migrated in
 * memory first: then it is encoded, and only when a result needs comparing).
 */
export async function migrateOne(
  migration: Migration,
  ctx: MigrationCtx,
  doc: Doc,
  stored?: string,
): Promise<MigrationStep> {
  const outcome = await migration.migrateOne(ctx, { ...doc } as never);
  return stepOf(doc, outcome, stored);
}

/**
 * Checks migrated fields against the table, throwing the first issues as one
 * sentence: a migration that answers a document the schema rejects fails
 * for that document instead of storing it.
 */
export function checkMigrated(
  tableName: string,
  table: AnyTableDefinition,
  fields: Record<string, unknown>,
): void {
  const issues: Issue[] = [];
  table.validator.check(fields, { path: [], issues });
  if (issues.length === 0) return;
  const listed = toValidationIssues(tableName, issues)
    .slice(0, 3)
    .map((issue) => `${issue.path}: ${issue.message}`);
  throw new Error(`the migrated document does not match the schema (${listed.join("; ")})`);
}

/** A thrown value as a one-line message for the run's report (no stack). */
export function errorMessage(thrown: unknown): string {
  const text = thrown instanceof Error ? thrown.message : String(thrown);
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}
