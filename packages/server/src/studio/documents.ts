import type { DatabaseReader, DatabaseWriter } from "../db/types.ts";
import { SvcError } from "../errors/svc-error.ts";
import { validationFailed } from "../errors/validation-failed.ts";
import type { AnyTableDefinition } from "../schema/define.ts";
import { tableOfId } from "../values/ids.ts";
import { type Issue, toValidationIssues } from "../values/validator.ts";
import type { DocumentChange, StudioDocument } from "./shard-protocol.ts";

/** Most documents one bulk request may change. */
export const MAX_BULK_IDS = 1_000;

const SYSTEM_FIELDS = ["_id", "_creationTime"] as const;

function notFound(): SvcError {
  return new SvcError("NOT_FOUND", "Not found.");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The document of `table` with this id as `db` sees it (RLS included), or
 * the generic NOT_FOUND, also for an id of another table or a malformed one.
 *
 * @example await readDocument(db, "messages", "messages_0123…") // { _id, _creationTime, … }
 */
export async function readDocument(
  db: DatabaseReader,
  table: string,
  id: string,
): Promise<StudioDocument> {
  const document = tableOfId(id) === table ? await db.get(id) : null;
  if (document === null) throw notFound();
  return document as StudioDocument;
}

/**
 * Checks a document's fields against the table's validators, with paths under
 * `root` (`body.title`), so the dashboard can put each error beside its field.
 * System fields are refused: the database sets them.
 */
function checkFields(definition: AnyTableDefinition, fields: unknown, root: string): void {
  const issues: Issue[] = [];
  if (isRecord(fields)) {
    for (const key of SYSTEM_FIELDS)
      if (Object.hasOwn(fields, key)) issues.push({ path: [key], message: "is set by the system" });
  }
  if (issues.length === 0) definition.validator.check(fields, { path: [], issues });
  if (issues.length > 0) throw validationFailed(toValidationIssues(root, issues));
}

/** Shallow-merges a patch over a document's own fields (what `ctx.db.patch` stores). */
function merged(current: StudioDocument, patch: Record<string, unknown>): Record<string, unknown> {
  const { _id, _creationTime, ...own } = current;
  return { ...own, ...patch };
}

function patchOf(fields: unknown, root: string): Record<string, unknown> {
  if (!isRecord(fields))
    throw validationFailed([{ path: root, message: "expected an object of fields" }]);
  for (const key of SYSTEM_FIELDS) {
    if (Object.hasOwn(fields, key))
      throw validationFailed([{ path: `${root}.${key}`, message: "is set by the system" }]);
  }
  return fields;
}

/** The operator's edits, each inside the transaction `write` opened; every one answers before/after. */
export const edits = {
  async insert(db: DatabaseWriter, definition: AnyTableDefinition, table: string, fields: unknown) {
    checkFields(definition, fields, "body");
    const id = await db.insert(table, fields as Record<string, unknown>);
    return {
      table,
      id,
      before: null,
      after: await readDocument(db, table, id),
    } satisfies DocumentChange;
  },

  async patch(
    db: DatabaseWriter,
    definition: AnyTableDefinition,
    table: string,
    id: string,
    fields: unknown,
    root = "body",
  ): Promise<DocumentChange> {
    const patch = patchOf(fields, root);
    const before = await readDocument(db, table, id);
    checkFields(definition, merged(before, patch), root);
    await db.patch(id, patch);
    return { table, id, before, after: await readDocument(db, table, id) };
  },

  async replace(
    db: DatabaseWriter,
    definition: AnyTableDefinition,
    table: string,
    id: string,
    fields: unknown,
  ): Promise<DocumentChange> {
    const before = await readDocument(db, table, id);
    checkFields(definition, fields, "body");
    await db.replace(id, fields as Record<string, unknown>);
    return { table, id, before, after: await readDocument(db, table, id) };
  },

  async delete(db: DatabaseWriter, table: string, id: string): Promise<DocumentChange> {
    const before = await readDocument(db, table, id);
    await db.delete(id);
    return { table, id, before, after: null };
  },
};

/**
 * Checks a bulk selection: 1 to {@link MAX_BULK_IDS} distinct ids, so one
 * request stays one bounded transaction.
 */
export function checkSelection(ids: readonly string[]): void {
  if (ids.length === 0)
    throw validationFailed([{ path: "body.ids", message: "select at least one document" }]);
  if (ids.length > MAX_BULK_IDS)
    throw validationFailed([
      {
        path: "body.ids",
        message: `at most ${MAX_BULK_IDS} documents per request, got ${ids.length}`,
      },
    ]);
  const seen = new Set<string>();
  ids.forEach((id, index) => {
    if (seen.has(id))
      throw validationFailed([{ path: `body.ids[${index}]`, message: "is listed twice" }]);
    seen.add(id);
  });
}
