/**
 * Pure pieces `svc codegen` runs inside workerd: the manifest of an app's
 * procedures and its OpenAPI document.
 *
 * @packageDocumentation
 */

export {
  type CronManifest,
  type HttpRouteManifest,
  manifestOf,
  type ProcedureManifest,
  type QueueManifest,
  registryFromModules,
} from "../manifest/manifest.ts";
export { buildOpenApi, type OpenApiDocument, type OpenApiOptions } from "../openapi/build.ts";
export {
  BREAKING_CHANGES,
  compareSchemas,
  type SchemaChange,
  type SchemaChangeKind,
} from "../schema/changes.ts";
export type { FieldDescription, ValidatorDescription } from "../schema/describe-validator.ts";
export {
  canonicalJson,
  type SchemaSnapshot,
  schemaVersion,
  snapshotSchema,
  type TableSnapshot,
} from "../schema/snapshot.ts";
export {
  type AppDescription,
  type DataModules,
  type DescribeInput,
  describeApp,
  type MigrationManifest,
} from "./describe.ts";
export {
  type BreakingChange,
  changesNeedingMigration,
  type RecordedSchema,
  type SchemaCheck,
  uncoveredMessage,
} from "./schema-check.ts";
