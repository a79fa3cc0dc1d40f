import { createMetaTable, SCHEMA_VERSION_KEY, writeMeta } from "../db/meta.ts";
import type { SchemaDefinition } from "./define.ts";
import { schemaVersion, snapshotSchema } from "./snapshot.ts";

const versions = new WeakMap<SchemaDefinition, Promise<string>>();

/**
 * The version of a schema (see {@link schemaVersion}), computed once per
 * schema object and isolate.
 *
 * @example await versionOf(schema) // "3f9a0c4e1b2d7a65"
 */
export function versionOf(schema: SchemaDefinition): Promise<string> {
  let version = versions.get(schema);
  if (version === undefined) {
    version = schemaVersion(snapshotSchema(schema));
    versions.set(schema, version);
  }
  return version;
}

/**
 * Records in `_svc_meta` the schema version a shard applied (`schema_version`),
 * the same content hash `svc codegen` writes into `svc/_generated/schema.json`,
 * so the registry can tell which shards run which schema.
 *
 * @example await recordAppliedVersion(ctx.storage.sql, schema);
 */
export async function recordAppliedVersion(
  sql: SqlStorage,
  schema: SchemaDefinition,
): Promise<string> {
  const version = await versionOf(schema);
  createMetaTable(sql);
  writeMeta(sql, SCHEMA_VERSION_KEY, version);
  return version;
}
