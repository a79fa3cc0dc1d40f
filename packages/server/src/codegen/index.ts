/**
 * Pure pieces `svc codegen` runs inside workerd: the manifest of an app's
 * procedures (and, with issue 5, its OpenAPI document).
 *
 * @packageDocumentation
 */
export { type AppDescription, type DescribeInput, describeApp } from "./describe.ts";
export { manifestOf, type ProcedureManifest, registryFromModules } from "./manifest.ts";
