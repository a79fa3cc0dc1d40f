import type { SchemaDefinition } from "./define.ts";
import { schemaVersion, snapshotSchema } from "./snapshot.ts";

const versions = new WeakMap<SchemaDefinition, Promise<string>>();

/**
 * The version of a schema (see {@link schemaVersion}), computed once per
 * schema object and isolate: a shard records it in `_svc_meta` as
 * `schema_version` at every start, the same content hash `svc codegen`
 * writes into `svc/_generated/schema.json`.
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
