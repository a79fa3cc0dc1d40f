import { builtinModules } from "node:module";
import * as esbuild from "esbuild";
import type { SourceModule } from "./find-modules.ts";

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

function discoveryEntry(modules: readonly SourceModule[]): string {
  const imports = modules.map(
    (module, index) => `import * as m${index} from ${JSON.stringify(module.file)};`,
  );
  const table = modules.map((module, index) => `  ${JSON.stringify(module.namespace)}: m${index},`);
  return [
    'import { describeApp } from "@svc/server/codegen";',
    ...imports,
    "const modules = {",
    ...table,
    "};",
    "export default {",
    "  async fetch(request) {",
    "    return Response.json(describeApp(modules, await request.json()));",
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
    plugins: [nodeBuiltins],
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
export function bundleDiscovery(appDir: string, modules: readonly SourceModule[]): Promise<string> {
  return bundleForWorkerd(appDir, discoveryEntry(modules), "svc-discovery.js");
}
