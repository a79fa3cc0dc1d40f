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

/** One step from a document's root towards a file id: a named field, or any item of an array or record. */
type Step = { field: string } | { each: "array" | "record" };

/**
 * Walks a field's description for `v.id("_storage")`, collecting the steps
 * to each: fields through objects (optional and unions included), and the
 * items of arrays and records on the way. Only these positions hold file
 * ids; any other text in the document (a caption beside an id) never counts.
 */
function collect(description: ValidatorDescription, steps: Step[], out: Map<string, Step[]>): void {
  switch (description.type) {
    case "id":
      if (description.table === STORAGE_ID_TABLE) out.set(JSON.stringify(steps), steps);
      return;
    case "object":
      for (const [name, field] of Object.entries(description.fields))
        collect(field, [...steps, { field: name }], out);
      return;
    case "union":
      for (const member of description.members) collect(member, steps, out);
      return;
    case "array":
      collect(description.item, [...steps, { each: "array" }], out);
      return;
    case "record":
      collect(description.values, [...steps, { each: "record" }], out);
      return;
    default:
      return;
  }
}

/** The dotted path of steps that are all plain field names, else `null`. */
function plainPath(steps: readonly Step[]): string | null {
  const names: string[] = [];
  for (const step of steps) {
    if (!("field" in step) || !SEGMENT.test(step.field)) return null;
    names.push(step.field);
  }
  return names.join(".");
}

function jsonPath(path: string): string {
  return path === "" ? "$" : `$.${path}`;
}

function sqlText(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/**
 * The condition of an id reached through an array, a record or a field name
 * a JSON path cannot spell: one `json_each` per such step, each row held to
 * the step's own kind (an array's integer keys, a record's text keys, the
 * field's name), then the id compared at the rest of its path. So only the
 * declared id positions match, never another string of the same container.
 */
function eachCondition(steps: readonly Step[]): string {
  const from: string[] = [];
  const where: string[] = [];
  let source = "_doc";
  let path = "";
  let row = "";
  for (const step of steps) {
    if ("field" in step && SEGMENT.test(step.field)) {
      path = path === "" ? step.field : `${path}.${step.field}`;
      continue;
    }
    row = `j${from.length}`;
    from.push(`json_each(${source}, '${jsonPath(path)}') AS ${row}`);
    if ("field" in step)
      where.push(`typeof(${row}.key) = 'text' AND ${row}.key = ${sqlText(step.field)}`);
    else where.push(`typeof(${row}.key) = '${step.each === "array" ? "integer" : "text"}'`);
    // A scalar where a container was declared (a union's other member) yields nothing.
    source = `CASE WHEN ${row}.type IN ('object', 'array') THEN ${row}.value ELSE 'null' END`;
    path = "";
  }
  where.push(
    path === ""
      ? `${row}.type = 'text' AND ${row}.value = ?`
      : `json_extract(${source}, '${jsonPath(path)}') = ?`,
  );
  return `EXISTS (SELECT 1 FROM ${from.join(", ")} WHERE ${where.join(" AND ")})`;
}

/**
 * Where documents of `schema` can reference a file: one SQL probe per
 * position of a `v.id("_storage")` field. A field reached through objects
 * is a `json_extract` comparison, backed by an expression index; one inside
 * an array or record walks those containers (`json_each`) to the id's own
 * position, which scans the table.
 *
 * @example referenceProbes(schema) // [{ table: "attachments", condition: "json_extract(_doc, '$.file') = ?", … }]
 */
export function referenceProbes(schema: SchemaDefinition): ReferenceProbe[] {
  const probes: ReferenceProbe[] = [];
  for (const [table, definition] of Object.entries(schema.tables)) {
    const positions = new Map<string, Step[]>();
    collect(
      { type: "object", fields: describeFields((definition as AnyTableDefinition).fields) },
      [],
      positions,
    );
    for (const steps of positions.values()) {
      const path = plainPath(steps);
      if (path === null) {
        probes.push({ table, condition: eachCondition(steps), index: null });
        continue;
      }
      const expression = `json_extract(_doc, '${jsonPath(path)}')`;
      probes.push({
        table,
        condition: `${expression} = ?`,
        index: `CREATE INDEX IF NOT EXISTS "s_${table}__${path.replaceAll(".", "__")}" ON ${sqlTable(table)} (${expression})`,
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
