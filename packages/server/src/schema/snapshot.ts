import { hexOf } from "../values/hex.ts";
import type { AnyTableDefinition, SchemaDefinition } from "./define.ts";
import { describeFields, type FieldDescription } from "./describe-validator.ts";

/** One table as codegen records it: its fields with their validators, and its indexes. */
export interface TableSnapshot {
  fields: Record<string, FieldDescription>;
  /** Index name → its fields, in key order. */
  indexes: Record<string, string[]>;
  /**
   * Search index name → its fields; absent when the table has none, so a
   * schema without search indexes keeps the version it had before they existed.
   */
  searchIndexes?: Record<string, { searchField: string; filterFields: string[] }>;
}

/** The shape of an app's data: every table, sorted by name. Plain, canonical JSON. */
export interface SchemaSnapshot {
  tables: Record<string, TableSnapshot>;
}

/**
 * Describes a schema as plain JSON (policies left out: they change who may
 * see a document, not whether it is valid). Codegen records it in
 * `svc/_generated/schema.json`; a shard hashes it into the version it applied.
 *
 * @example
 * snapshotSchema(defineSchema({ notes: defineTable({ text: v.string() }) }))
 * // { tables: { notes: { fields: { text: { type: "string" } }, indexes: {} } } }
 */
export function snapshotSchema(schema: SchemaDefinition): SchemaSnapshot {
  const tables: Record<string, TableSnapshot> = {};
  for (const name of Object.keys(schema.tables).sort()) {
    const table = schema.tables[name] as AnyTableDefinition;
    const indexes: Record<string, string[]> = {};
    for (const index of Object.keys(table.indexes).sort()) {
      indexes[index] = [...(table.indexes[index] ?? [])];
    }
    tables[name] = { fields: describeFields(table.fields), indexes };
    const searchNames = Object.keys(table.searchIndexes).sort();
    if (searchNames.length > 0) {
      const searchIndexes: NonNullable<TableSnapshot["searchIndexes"]> = {};
      for (const index of searchNames) {
        const spec = table.searchIndexes[index];
        if (spec === undefined) continue;
        searchIndexes[index] = {
          searchField: spec.searchField,
          filterFields: [...spec.filterFields],
        };
      }
      tables[name].searchIndexes = searchIndexes;
    }
  }
  return { tables };
}

/** JSON with every object's keys sorted: the same snapshot always gives the same text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (inner === null || typeof inner !== "object" || Array.isArray(inner)) return inner;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(inner).sort()) out[key] = (inner as Record<string, unknown>)[key];
    return out;
  });
}

/**
 * The schema version: the first 16 hex digits of the SHA-256 of the
 * snapshot's canonical JSON. Content-addressed, so codegen (in Node) and a
 * shard (in workerd) compute the same version from the same schema without
 * sharing a counter.
 *
 * @example await schemaVersion(snapshotSchema(schema)) // "3f9a0c4e1b2d7a65"
 */
export async function schemaVersion(snapshot: SchemaSnapshot): Promise<string> {
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(canonicalJson(snapshot.tables)),
  );
  return hexOf(new Uint8Array(digest).slice(0, 8));
}
