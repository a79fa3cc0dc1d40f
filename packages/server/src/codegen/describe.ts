import { buildOpenApi, type OpenApiDocument, type OpenApiOptions } from "../openapi/build.ts";
import { manifestOf, type ProcedureManifest, registryFromModules } from "./manifest.ts";

/** What `svc codegen` asks the discovery worker for. */
export interface DescribeInput {
  openapi?: OpenApiOptions;
}

/** What the discovery worker answers. */
export interface AppDescription {
  manifest: ProcedureManifest[];
  openapi: OpenApiDocument;
}

/**
 * Describes an app from its procedure modules. Runs inside workerd during
 * `svc codegen`, so the manifest and the OpenAPI document are built by the
 * same code that serves.
 */
export function describeApp(
  modules: Readonly<Record<string, Record<string, unknown>>>,
  input: DescribeInput,
): AppDescription {
  const manifest = manifestOf(registryFromModules(modules));
  return { manifest, openapi: buildOpenApi(manifest, input.openapi) };
}
