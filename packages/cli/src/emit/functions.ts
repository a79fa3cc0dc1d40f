import type { MigrationManifest, ProcedureManifest } from "@svc/server/codegen";
import { GENERATED_HEADER, identifierFor, importPath } from "./header.ts";

/** Which entry-point modules the app has (`svc/http.ts`, `svc/crons.ts`, `svc/queues.ts`). */
export interface EntryPoints {
  http: boolean;
  crons: boolean;
  queues: boolean;
}

const ENTRY_DOCS: Record<keyof EntryPoints, string> = {
  http: "/** The app's HTTP actions (svc/http.ts), for `createWorker({ http })`. */",
  crons: "/** The app's cron jobs (svc/crons.ts), for `createWorker({ crons })`. */",
  queues: "/** The app's queue consumers (svc/queues.ts), for `createWorker({ queues })`. */",
};

/** The identifier a migration is imported as (`2026-11-28-title` → `migration_2026_11_28_title`). */
function migrationIdentifier(name: string): string {
  return `migration_${name.replaceAll(/[^A-Za-z0-9_$]/g, "_")}`;
}

/**
 * `_generated/functions.ts`: the registry `createShard` and `createWorker`
 * take, the app's other entry points when it has them, and its migrations
 * (by file name, for `createShard({ migrations })`) when `svc/migrations/`
 * has any. Kept apart from `api.ts` so clients never import server modules.
 */
export function emitFunctions(
  manifest: readonly ProcedureManifest[],
  entryPoints: EntryPoints = { http: false, crons: false, queues: false },
  migrations: readonly MigrationManifest[] = [],
): string {
  const namespaces = [
    ...new Set(manifest.map((entry) => entry.path.slice(0, entry.path.lastIndexOf(":")))),
  ];
  const entries = manifest.map((entry) => {
    const cut = entry.path.lastIndexOf(":");
    return `  ${JSON.stringify(entry.path)}: ${identifierFor(entry.path.slice(0, cut))}.${entry.path.slice(cut + 1)},`;
  });
  return [
    GENERATED_HEADER,
    `import type { FunctionRegistry${migrations.length > 0 ? ", MigrationRegistry" : ""} } from "@svc/server";`,
    ...namespaces.map(
      (namespace) =>
        `import * as ${identifierFor(namespace)} from ${JSON.stringify(importPath(namespace))};`,
    ),
    ...migrations.map(
      ({ name }) =>
        `import ${migrationIdentifier(name)} from ${JSON.stringify(`../migrations/${name}.ts`)};`,
    ),
    "",
    "/** Every procedure of the app by path. */",
    "export const functions = {",
    ...entries,
    "} satisfies FunctionRegistry;",
    ...(Object.keys(ENTRY_DOCS) as (keyof EntryPoints)[])
      .filter((name) => entryPoints[name])
      .flatMap((name) => [
        "",
        ENTRY_DOCS[name],
        `export { default as ${name} } from ${JSON.stringify(importPath(name))};`,
      ]),
    ...(migrations.length === 0
      ? []
      : [
          "",
          "/** The app's data migrations (svc/migrations/), by name, for `createShard({ migrations })`. */",
          "export const migrations = {",
          ...migrations.map(
            ({ name }) => `  ${JSON.stringify(name)}: ${migrationIdentifier(name)},`,
          ),
          "} satisfies MigrationRegistry;",
        ]),
    "",
  ].join("\n");
}
