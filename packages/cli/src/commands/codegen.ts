import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { AppDescription } from "@svc/server/codegen";
import { bundleDiscovery } from "../discovery/bundle.ts";
import { findMigrations, findModules } from "../discovery/find-modules.ts";
import { runInWorkerd } from "../discovery/run-in-workerd.ts";
import { emitApi } from "../emit/api.ts";
import { emitFunctions } from "../emit/functions.ts";
import { identifierFor } from "../emit/header.ts";
import { emitOpenApiJson, emitOpenApiModule } from "../emit/openapi.ts";
import { emitSchemaJson } from "../emit/schema.ts";
import { checkSchemaChanges } from "./schema-changes.ts";
import { checkWranglerTriggers } from "./wrangler-triggers.ts";

/** Options of {@link codegen}. */
export interface CodegenOptions {
  /** The app's root (holds `wrangler.jsonc` and `svc/`). */
  appDir: string;
  /** Compare instead of writing; the result lists stale files. */
  check?: boolean;
  /** Progress lines. @default console.error */
  log?: (line: string) => void;
}

/** What codegen produced. */
export interface CodegenResult {
  /** Generated files by path relative to the app. */
  files: Record<string, string>;
  /** Files whose content differs from what is on disk (written, or only reported with `check`). */
  changed: string[];
  procedureCount: number;
  /** The schema version recorded in `svc/_generated/schema.json` (`null` without `svc/schema.ts`). */
  schemaVersion: string | null;
}

/** Title, version and description of the OpenAPI document, from the app's package.json. */
async function openApiOptions(
  appDir: string,
): Promise<{ title?: string; version?: string; description?: string }> {
  const file = path.join(appDir, "package.json");
  if (!existsSync(file)) return {};
  const pkg = JSON.parse(await readFile(file, "utf8")) as {
    name?: string;
    version?: string;
    description?: string;
  };
  return {
    ...(pkg.name ? { title: pkg.name } : {}),
    ...(pkg.version ? { version: pkg.version } : {}),
    ...(pkg.description ? { description: pkg.description } : {}),
  };
}

/**
 * Discovers the procedures under `<appDir>/svc/` by loading them in workerd
 * and writes `svc/_generated/`: `api.ts` (references), `functions.ts`
 * (registry, entry points, migrations), `openapi.json` and `openapi.ts` (the
 * REST surface's OpenAPI 3.1 document) and `schema.json` (the schema it saw).
 * A schema change stored documents may violate, with no new migration of its
 * table, fails with `SCHEMA_CHANGE_NEEDS_MIGRATION` before anything is
 * written.
 *
 * @example
 * ```ts
 * const { changed } = await codegen({ appDir: "examples/app", check: true });
 * ```
 */
export async function codegen(options: CodegenOptions): Promise<CodegenResult> {
  const log = options.log ?? ((line: string) => console.error(line));
  const started = performance.now();
  const appDir = path.resolve(options.appDir);
  const svcDir = path.join(appDir, "svc");
  if (!existsSync(svcDir)) throw new Error(`svc codegen: no svc/ folder in ${appDir}`);
  const modules = await findModules(svcDir);
  const identifiers = new Map<string, string>();
  for (const module of modules) {
    const id = identifierFor(module.namespace);
    const other = identifiers.get(id);
    if (other !== undefined)
      throw new Error(
        `svc codegen: ${other} and ${module.namespace} map to the same identifier ${id}; rename one`,
      );
    identifiers.set(id, module.namespace);
  }
  log(
    `svc codegen: bundling ${modules.length} module(s) from ${path.relative(process.cwd(), svcDir) || "."}`,
  );
  const schemaFile = path.join(svcDir, "schema.ts");
  const script = await bundleDiscovery(appDir, modules, {
    schemaFile: existsSync(schemaFile) ? schemaFile : undefined,
    migrations: await findMigrations(svcDir),
  });
  log("svc codegen: loading them in workerd");
  const description = await runInWorkerd<AppDescription>(appDir, script, {
    openapi: await openApiOptions(appDir),
  });
  checkWranglerTriggers(appDir, description);
  const schema = await checkSchemaChanges(appDir, description, log);
  const files: Record<string, string> = {
    "svc/_generated/api.ts": emitApi(description.manifest, description.schema !== null),
    "svc/_generated/functions.ts": emitFunctions(
      description.manifest,
      {
        http: description.http !== null,
        crons: description.crons !== null,
        queues: description.queues !== null,
      },
      description.migrations,
    ),
    "svc/_generated/openapi.json": emitOpenApiJson(description.openapi),
    "svc/_generated/openapi.ts": emitOpenApiModule(description.openapi),
    ...(schema === null || description.schema === null
      ? {}
      : {
          "svc/_generated/schema.json": emitSchemaJson(
            description.schema,
            schema.version,
            description.migrations,
          ),
        }),
  };
  const changed: string[] = [];
  for (const [relative, content] of Object.entries(files)) {
    const target = path.join(appDir, relative);
    const current = existsSync(target) ? await readFile(target, "utf8") : undefined;
    if (current === content) continue;
    changed.push(relative);
    if (!options.check) {
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, content);
    }
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  const verb = options.check
    ? changed.length > 0
      ? "stale"
      : "up to date"
    : changed.length > 0
      ? "wrote"
      : "unchanged";
  log(
    `svc codegen: ${description.manifest.length} procedure(s); ${verb}${changed.length > 0 ? `: ${changed.join(", ")}` : ""} (${seconds}s)`,
  );
  return {
    files,
    changed,
    procedureCount: description.manifest.length,
    schemaVersion: schema?.version ?? null,
  };
}
