import { builtinModules } from "node:module";
import path from "node:path";
import * as esbuild from "esbuild";
import type { MigrationModule, SourceModule } from "./find-modules.ts";

const NODE_BUILTINS = new Set(builtinModules.filter((name) => !name.startsWith("_")));

/** Maps bare Node built-ins (`crypto`) to `node:crypto`, which workerd provides under nodejs_compat. */
const nodeBuiltins: esbuild.Plugin = {
  name: "svc-node-builtins",
  setup(build) {
    build.onResolve({ filter: /^[a-z_/]+$/ }, (args) => {
      const root = args.path.split("/")[0] ?? "";
      return NODE_BUILTINS.has(root) ? { path: `node:${args.path}`, external: true } : undefined;
    });
  },
};

/**
 * `svc/_generated/api.ts` as discovery sees it: references by path only,
 * built from property access. The real file is generated from discovery's
 * answer, so a module that uses `internal.x.y` for a procedure added since
 * the last run (a cron job's target, a queue consumer) must load before that
 * reference exists. Kinds are checked against the registry afterwards.
 */
const GENERATED_API_STUB = `
function reference(segments) {
  return new Proxy({}, {
    get(_target, key) {
      if (typeof key !== "string" || key === "then" || key === "kind" || key === "visibility") return undefined;
      if (key === "path") return segments.length < 2 ? undefined : segments.slice(0, -1).join("/") + ":" + segments[segments.length - 1];
      return reference([...segments, key]);
    },
  });
}
export const api = reference([]);
export const internal = reference([]);
`;

function generatedApiStub(apiFile: string): esbuild.Plugin {
  return {
    name: "svc-generated-api-stub",
    setup(build) {
      build.onResolve({ filter: /_generated\/api(\.ts)?$/ }, (args) => {
        const resolved = path.resolve(args.resolveDir, args.path);
        const candidate = resolved.endsWith(".ts") ? resolved : `${resolved}.ts`;
        return candidate === apiFile ? { path: candidate, namespace: "svc-api-stub" } : undefined;
      });
      build.onLoad({ filter: /.*/, namespace: "svc-api-stub" }, () => ({
        contents: GENERATED_API_STUB,
        loader: "js",
      }));
    },
  };
}

/** The app's data modules for discovery: `svc/schema.ts` (when present) and its migrations. */
export interface DataSources {
  schemaFile: string | undefined;
  migrations: readonly MigrationModule[];
}

function discoveryEntry(modules: readonly SourceModule[], data: DataSources): string {
  const imports = modules.map(
    (module, index) => `import * as m${index} from ${JSON.stringify(module.file)};`,
  );
  const table = modules.map((module, index) => `  ${JSON.stringify(module.namespace)}: m${index},`);
  return [
    'import { describeApp } from "@svc/server/codegen";',
    ...imports,
    ...(data.schemaFile ? [`import schema from ${JSON.stringify(data.schemaFile)};`] : []),
    ...data.migrations.map(
      (migration, index) => `import migration${index} from ${JSON.stringify(migration.file)};`,
    ),
    "const modules = {",
    ...table,
    "};",
    "const data = {",
    ...(data.schemaFile ? ["  schema,"] : []),
    "  migrations: {",
    ...data.migrations.map(
      (migration, index) => `    ${JSON.stringify(migration.name)}: migration${index},`,
    ),
    "  },",
    "};",
    "export default {",
    "  async fetch(request) {",
    "    return Response.json(describeApp(modules, await request.json(), data));",
    "  },",
    "};",
    "",
  ].join("\n");
}

/**
 * Bundles an entry module (source text, resolved from `appDir`) into one
 * ES module for workerd: Cloudflare and Node built-ins stay imports,
 * everything else is inlined with the `workerd` export conditions, as
 * wrangler would.
 */
export async function bundleForWorkerd(
  appDir: string,
  entry: string,
  sourcefile: string,
  extraPlugins: readonly esbuild.Plugin[] = [],
): Promise<string> {
  const result = await esbuild.build({
    stdin: { contents: entry, resolveDir: appDir, sourcefile, loader: "js" },
    absWorkingDir: appDir,
    bundle: true,
    write: false,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    conditions: ["workerd", "worker", "browser"],
    mainFields: ["module", "main"],
    external: ["cloudflare:*", "node:*"],
    plugins: [nodeBuiltins, ...extraPlugins],
    logLevel: "silent",
  });
  const output = result.outputFiles[0];
  if (output === undefined) throw new Error(`svc: esbuild produced no output for ${sourcefile}`);
  return output.text;
}

/**
 * Bundles a worker that imports every procedure module and answers their
 * manifest. It runs in workerd, so modules that import `cloudflare:workers`
 * or read bindings at load time are discovered as they really load.
 */
export function bundleDiscovery(
  appDir: string,
  modules: readonly SourceModule[],
  data: DataSources = { schemaFile: undefined, migrations: [] },
): Promise<string> {
  const apiFile = path.join(appDir, "svc", "_generated", "api.ts");
  return bundleForWorkerd(appDir, discoveryEntry(modules, data), "svc-discovery.js", [
    generatedApiStub(apiFile),
  ]);
}
