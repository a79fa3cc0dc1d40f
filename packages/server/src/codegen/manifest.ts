import { type FunctionRegistry, isProcedure } from "../procedures/procedure.ts";
import type { ProcedureKind, Visibility } from "../procedures/references.ts";
import type { JsonSchema } from "../values/validator.ts";

/** What codegen and the OpenAPI emitter know about one procedure. Plain JSON. */
export interface ProcedureManifest {
  path: string;
  kind: ProcedureKind;
  visibility: Visibility;
  rest: boolean;
  /** JSON Schema of the arguments object. */
  args: JsonSchema;
  /** JSON Schema of the result, when `.output()` declares one. */
  output: JsonSchema | null;
  summary: string | null;
  description: string | null;
}

/** Describes every procedure of a registry, sorted by path for stable output. */
export function manifestOf(functions: FunctionRegistry): ProcedureManifest[] {
  return Object.entries(functions)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([path, procedure]) => ({
      path,
      kind: procedure.kind,
      visibility: procedure.visibility,
      rest: procedure.rest,
      args: procedure.args.toJsonSchema(),
      output: procedure.output?.toJsonSchema() ?? null,
      summary: procedure.docs.summary ?? null,
      description: procedure.docs.description ?? null,
    }));
}

/**
 * Builds a registry from module namespaces (`{ "admin/users": module }`): every
 * named export that is a procedure becomes `<namespace>:<export>`.
 */
export function registryFromModules(
  modules: Readonly<Record<string, Record<string, unknown>>>,
): FunctionRegistry {
  const functions: Record<string, FunctionRegistry[string]> = {};
  for (const [namespace, module] of Object.entries(modules)) {
    for (const [name, value] of Object.entries(module)) {
      if (name !== "default" && isProcedure(value)) functions[`${namespace}:${name}`] = value;
    }
  }
  return functions;
}
