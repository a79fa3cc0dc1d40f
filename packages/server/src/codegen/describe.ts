import { manifestOf, type ProcedureManifest, registryFromModules } from "./manifest.ts";

/** What `svc codegen` asks the discovery worker for. */
export interface DescribeInput {
  /** Reserved for options of generated documents. */
  [key: string]: unknown;
}

/** What the discovery worker answers. */
export interface AppDescription {
  manifest: ProcedureManifest[];
}

/**
 * Describes an app from its procedure modules. Runs inside workerd during
 * `svc codegen`, so the manifest is built by the same code that serves.
 */
export function describeApp(
  modules: Readonly<Record<string, Record<string, unknown>>>,
  _input: DescribeInput,
): AppDescription {
  return { manifest: manifestOf(registryFromModules(modules)) };
}
