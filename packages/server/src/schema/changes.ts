import type { FieldDescription, ValidatorDescription } from "./describe-validator.ts";
import type { SchemaSnapshot, TableSnapshot } from "./snapshot.ts";
import { canonicalJson } from "./snapshot.ts";
import { within } from "./subset.ts";

/**
 * What changed between two recorded schemas. `breaking` kinds may leave
 * stored documents that the new validators reject; the others cannot.
 */
export type SchemaChangeKind =
  | "table-added"
  | "table-removed"
  | "field-added-optional"
  | "field-added-required"
  | "field-removed"
  | "field-renamed"
  | "field-now-optional"
  | "field-now-required"
  | "field-widened"
  | "field-narrowed"
  | "index-added"
  | "index-removed"
  | "index-changed"
  | "search-index-added"
  | "search-index-removed"
  | "search-index-changed";

/** Kinds that existing documents may violate: each needs a migration. */
export const BREAKING_CHANGES: ReadonlySet<SchemaChangeKind> = new Set([
  "table-removed",
  "field-added-required",
  "field-removed",
  "field-renamed",
  "field-now-required",
  "field-narrowed",
]);

/** One change of one table, with a sentence naming it. */
export interface SchemaChange {
  table: string;
  kind: SchemaChangeKind;
  /** The field or index the change is about (absent for whole tables). */
  name?: string;
  /** e.g. `new required field "title" (string)`. */
  detail: string;
  /** True when documents already stored may violate the new schema. */
  breaking: boolean;
}

/** A short type name for messages: `string`, `id<users>`, `array<number>`, `"a" | "b"`. */
export function typeName(description: ValidatorDescription): string {
  switch (description.type) {
    case "literal":
      return description.bigint ? `${description.value}n` : JSON.stringify(description.value);
    case "id":
      return `id<${description.table}>`;
    case "array":
      return `array<${typeName(description.item)}>`;
    case "record":
      return `record<${typeName(description.values)}>`;
    case "union":
      return description.members.map(typeName).join(" | ");
    case "object":
      return `{ ${Object.entries(description.fields)
        .map(([name, field]) => `${name}${field.optional ? "?" : ""}: ${typeName(field)}`)
        .join(", ")} }`;
    case "string":
    case "number": {
      const { type, ...constraints } = description;
      const listed = Object.entries(constraints).map(([key, value]) => `${key} ${value}`);
      return listed.length === 0 ? type : `${type} (${listed.join(", ")})`;
    }
    default:
      return description.type;
  }
}

/** The field's validator without its optional mark, for comparing types alone. */
function typeOf(field: FieldDescription): ValidatorDescription {
  const { optional: _optional, ...type } = field;
  return type as ValidatorDescription;
}

const change = (
  table: string,
  kind: SchemaChangeKind,
  detail: string,
  name?: string,
): SchemaChange => ({
  table,
  kind,
  ...(name === undefined ? {} : { name }),
  detail,
  breaking: BREAKING_CHANGES.has(kind),
});

function compareFields(table: string, before: TableSnapshot, after: TableSnapshot): SchemaChange[] {
  const changes: SchemaChange[] = [];
  const removed = Object.keys(before.fields).filter((name) => !Object.hasOwn(after.fields, name));
  const added = Object.keys(after.fields).filter((name) => !Object.hasOwn(before.fields, name));
  const renamedTo = new Map<string, string>();
  for (const from of removed) {
    const old = canonicalJson(typeOf(before.fields[from] as FieldDescription));
    const to = added.find(
      (name) =>
        ![...renamedTo.values()].includes(name) &&
        canonicalJson(typeOf(after.fields[name] as FieldDescription)) === old,
    );
    if (to !== undefined) renamedTo.set(from, to);
  }
  for (const name of removed) {
    const to = renamedTo.get(name);
    if (to !== undefined) {
      changes.push(change(table, "field-renamed", `field "${name}" renamed to "${to}"`, name));
    } else {
      const type = typeName(typeOf(before.fields[name] as FieldDescription));
      changes.push(change(table, "field-removed", `field "${name}" (${type}) removed`, name));
    }
  }
  for (const name of added) {
    if ([...renamedTo.values()].includes(name)) continue;
    const field = after.fields[name] as FieldDescription;
    changes.push(
      field.optional
        ? change(
            table,
            "field-added-optional",
            `new optional field "${name}" (${typeName(typeOf(field))})`,
            name,
          )
        : change(
            table,
            "field-added-required",
            `new required field "${name}" (${typeName(typeOf(field))})`,
            name,
          ),
    );
  }
  for (const [name, next] of Object.entries(after.fields)) {
    const previous = Object.hasOwn(before.fields, name) ? before.fields[name] : undefined;
    if (previous === undefined) continue;
    if (previous.optional && !next.optional) {
      changes.push(change(table, "field-now-required", `field "${name}" is now required`, name));
    } else if (!previous.optional && next.optional) {
      changes.push(change(table, "field-now-optional", `field "${name}" is now optional`, name));
    }
    const [from, to] = [typeOf(previous), typeOf(next)];
    if (canonicalJson(from) === canonicalJson(to)) continue;
    const sentence = `field "${name}": ${typeName(from)} → ${typeName(to)}`;
    changes.push(
      within(from, to)
        ? change(table, "field-widened", `${sentence} (wider)`, name)
        : change(table, "field-narrowed", `${sentence} (narrower or different type)`, name),
    );
  }
  return changes;
}

function compareIndexes(
  table: string,
  before: TableSnapshot,
  after: TableSnapshot,
): SchemaChange[] {
  const changes: SchemaChange[] = [];
  for (const [name, fields] of Object.entries(after.indexes)) {
    const previous = Object.hasOwn(before.indexes, name) ? before.indexes[name] : undefined;
    const list = fields.join(", ");
    if (previous === undefined) {
      changes.push(change(table, "index-added", `new index "${name}" (${list})`, name));
    } else if (previous.join(",") !== fields.join(",")) {
      changes.push(
        change(
          table,
          "index-changed",
          `index "${name}": (${previous.join(", ")}) → (${list})`,
          name,
        ),
      );
    }
  }
  for (const name of Object.keys(before.indexes)) {
    if (!Object.hasOwn(after.indexes, name))
      changes.push(change(table, "index-removed", `index "${name}" removed`, name));
  }
  return changes;
}

/** Search indexes added, removed or changed: all compatible (a search index validates nothing). */
function compareSearchIndexes(
  table: string,
  before: TableSnapshot,
  after: TableSnapshot,
): SchemaChange[] {
  const changes: SchemaChange[] = [];
  const old = before.searchIndexes ?? {};
  const next = after.searchIndexes ?? {};
  const describe = (spec: { searchField: string; filterFields: string[] }) =>
    spec.filterFields.length === 0
      ? spec.searchField
      : `${spec.searchField}; filters ${spec.filterFields.join(", ")}`;
  for (const [name, spec] of Object.entries(next)) {
    const previous = Object.hasOwn(old, name) ? old[name] : undefined;
    if (previous === undefined) {
      changes.push(
        change(table, "search-index-added", `new search index "${name}" (${describe(spec)})`, name),
      );
    } else if (canonicalJson(previous) !== canonicalJson(spec)) {
      const detail = `search index "${name}": (${describe(previous)}) → (${describe(spec)})`;
      changes.push(change(table, "search-index-changed", detail, name));
    }
  }
  for (const name of Object.keys(old)) {
    if (!Object.hasOwn(next, name))
      changes.push(change(table, "search-index-removed", `search index "${name}" removed`, name));
  }
  return changes;
}

/**
 * Classifies every change from the recorded schema to the new one, table by
 * table: compatible changes (a new table, an optional field, a wider type, an
 * index, a search index) and changes existing documents may violate (a new required field, a
 * narrower type, a removed or renamed field, a removed table).
 *
 * @example
 * compareSchemas(recorded, snapshotSchema(schema)).filter((c) => c.breaking)
 */
export function compareSchemas(before: SchemaSnapshot, after: SchemaSnapshot): SchemaChange[] {
  const changes: SchemaChange[] = [];
  const names = [...new Set([...Object.keys(before.tables), ...Object.keys(after.tables)])].sort();
  for (const table of names) {
    const old = Object.hasOwn(before.tables, table) ? before.tables[table] : undefined;
    const next = Object.hasOwn(after.tables, table) ? after.tables[table] : undefined;
    if (old === undefined) changes.push(change(table, "table-added", `new table "${table}"`));
    else if (next === undefined)
      changes.push(change(table, "table-removed", `table "${table}" removed`));
    else
      changes.push(
        ...compareFields(table, old, next),
        ...compareIndexes(table, old, next),
        ...compareSearchIndexes(table, old, next),
      );
  }
  return changes;
}
