/**
 * Pure pieces `svc codegen` runs inside workerd: the manifest of an app's
 * procedures and its OpenAPI document.
 *
 * @packageDocumentation
 */
export { buildOpenApi, type OpenApiDocument, type OpenApiOptions } from "../openapi/build.ts";
export { type AppDescription, type DescribeInput, describeApp } from "./describe.ts";
export {
  type CronManifest,
  type HttpRouteManifest,
  manifestOf,
  type ProcedureManifest,
  type QueueManifest,
  registryFromModules,
} from "./manifest.ts";
