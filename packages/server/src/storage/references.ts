import { sqlTable } from "../db/storage.ts";
import type { AnyTableDefinition, SchemaDefinition } from "../schema/define.ts";
import { describeFields, type ValidatorDescription } from "../schema/describe-validator.ts";

/** The table name of file ids: a field declared `v.id("_storage")` references a file. */
export const STORAGE_ID_TABLE = "_storage";

/** One SQL test of "this document references file `?`", per table. */
export interface ReferenceProbe {
  table: string;
  /** A boolean SQL expression over the row with one `?`: the storage id. */
  condition: string;
  /** An index that makes the probe a lookup (plain object paths only), or `null`. */
  index: string | null;
}

const SEGMENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Walks a field's description for `v.id("_storage")`, collecting the object
 * path to each: `whole` paths reach the id through objects only (optional
 * and unions included); inside an array or record, the path stops at the
 * container (`nested`), searched with `json_tree`.
 */
function collect(
  description: ValidatorDescription,
  path: string[],
  out: { whole: Set<string>; nested: Set<string> },
): void {
  switch (description.type) {
    case "id":
      if (description.table === STORAGE_ID_TABLE) out.whole.add(path.join("."));
      return;
    case "object":
      for (const [name, field] of Object.entries(description.fields)) {
        if (!SEGMENT.test(name)) {
          if (mentionsStorage(field)) out.nested.add(path.join("."));
        } else collect(field, [...path, name], out);
      }
      return;
    case "union":
      for (const member of description.members) collect(member, path, out);
      return;
    case "array":
      if (mentionsStorage(description.item)) out.nested.add(path.join("."));
      return;
    case "record":
      if (mentionsStorage(description.values)) out.nested.add(path.join("."));
      return;
    default:
      return;
  }
}

function mentionsStorage(description: ValidatorDescription): boolean {
  return JSON.stringify(description).includes(`{"type":"id","table":"${STORAGE_ID_TABLE}"}`);
}

function jsonPath(path: string): string {
  return path === "" ? "$" : `$.${path}`;
}

/**
 * Where documents of `schema` can reference a file: one SQL probe per table
 * with a `v.id("_storage")` field. A field reached through objects is a
 * `json_extract` comparison, backed by an expression index; one inside an
 * array or record searches that container's values (`json_tree`), which
 * scans the table.
 *
 * @example referenceProbes(schema) // [{ table: "attachments", condition: "json_extract(_doc, '$.file') = ?", … }]
 */
export function referenceProbes(schema: SchemaDefinition): ReferenceProbe[] {
  const probes: ReferenceProbe[] = [];
  for (const [table, definition] of Object.entries(schema.tables)) {
    const out = { whole: new Set<string>(), nested: new Set<string>() };
    collect(
      { type: "object", fields: describeFields((definition as AnyTableDefinition).fields) },
      [],
      out,
    );
    for (const path of out.whole) {
      const expression = `json_extract(_doc, '${jsonPath(path)}')`;
      probes.push({
        table,
        condition: `${expression} = ?`,
        index: `CREATE INDEX IF NOT EXISTS "s_${table}__${path.replaceAll(".", "__")}" ON ${sqlTable(table)} (${expression})`,
      });
    }
    for (const path of out.nested) {
      probes.push({
        table,
        condition: `EXISTS (SELECT 1 FROM json_tree(_doc, '${jsonPath(path)}') WHERE json_tree.type = 'text' AND json_tree.value = ?)`,
        index: null,
      });
    }
  }
  return probes;
}

/** A document that references a file. */
export interface FileReference {
  table: string;
  id: string;
}

/**
 * The documents that reference file `storageId`, RLS not applied (callers
 * decide what the caller may see), at most `limit` of them.
 *
 * @example referencesTo(sql, probes, "_storage_…", 20)
 */
export function referencesTo(
  sql: SqlStorage,
  probes: readonly ReferenceProbe[],
  storageId: string,
  limit: number,
): FileReference[] {
  const found: FileReference[] = [];
  for (const probe of probes) {
    if (found.length >= limit) break;
    const rows = sql.exec<{ _id: string }>(
      `SELECT _id FROM ${sqlTable(probe.table)} WHERE ${probe.condition} LIMIT ?`,
      storageId,
      limit - found.length,
    );
    for (const row of rows) found.push({ table: probe.table, id: row._id });
  }
  return found;
}
