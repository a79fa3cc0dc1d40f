import type { ProcedureManifest } from "@svc/server/codegen";
import { GENERATED_HEADER, identifierFor, importPath } from "./header.ts";

/**
 * `_generated/functions.ts`: the registry `createShard` and `createWorker`
 * take. Kept apart from `api.ts` so clients never import server modules.
 */
export function emitFunctions(manifest: readonly ProcedureManifest[]): string {
  const namespaces = [
    ...new Set(manifest.map((entry) => entry.path.slice(0, entry.path.lastIndexOf(":")))),
  ];
  const entries = manifest.map((entry) => {
    const cut = entry.path.lastIndexOf(":");
    return `  ${JSON.stringify(entry.path)}: ${identifierFor(entry.path.slice(0, cut))}.${entry.path.slice(cut + 1)},`;
  });
  return [
    GENERATED_HEADER,
    'import type { FunctionRegistry } from "@svc/server";',
    ...namespaces.map(
      (namespace) =>
        `import * as ${identifierFor(namespace)} from ${JSON.stringify(importPath(namespace))};`,
    ),
    "",
    "/** Every procedure of the app by path. */",
    "export const functions = {",
    ...entries,
    "} satisfies FunctionRegistry;",
    "",
  ].join("\n");
}
