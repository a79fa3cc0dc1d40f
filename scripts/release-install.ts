/**
 * The release test's install checks (issue 46): a new app installs against the registry as it is
 * today, with no lockfile, and an upstream release that breaks resolution fails here first with a
 * message naming the package that broke; a new app holds one workerd and one esbuild.
 */
import { execFile } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";

const exec = promisify(execFile);

/**
 * What npm's ERESOLVE report says broke, in one line: the edge it could not satisfy, what it was
 * resolving and what it found. `undefined` when the output is no resolution failure.
 *
 * @example
 * ```ts
 * resolutionFailure('npm error While resolving: a@1\nnpm error Found: b@1\nnpm error Could not resolve dependency:\nnpm error peer b@"^2" from c@2');
 * // 'peer b@"^2" from c@2 (while resolving a@1; found b@1)'
 * ```
 */
export function resolutionFailure(output: string): string | undefined {
  const lines = output.split("\n").map((line) => line.replace(/^npm (?:error|ERR!)\s?/, "").trim());
  const resolving = lines
    .find((line) => line.startsWith("While resolving:"))
    ?.slice(16)
    .trim();
  const found = lines
    .find((line) => line.startsWith("Found:"))
    ?.slice(6)
    .trim();
  const index = lines.findIndex((line) => line.startsWith("Could not resolve dependency:"));
  const edge = index >= 0 ? lines[index + 1] : undefined;
  if (!edge && !resolving) return undefined;
  return `${edge ?? "(no edge named)"} (while resolving ${resolving ?? "?"}; found ${found ?? "?"})`;
}

/**
 * `npm install` in `app` as a user runs it (no lockfile, no flags). A resolution failure becomes an
 * error that names the package and range that broke, so CI says which upstream release did it.
 *
 * @example
 * ```ts
 * await installAsUser(path.join(work, "app"), env, "the API template");
 * ```
 */
export async function installAsUser(app: string, env: NodeJS.ProcessEnv, what: string) {
  try {
    await exec("npm", ["install", "--no-audit", "--no-fund"], {
      cwd: app,
      env,
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    const broke = resolutionFailure(`${stdout}\n${stderr}`);
    throw new Error(
      broke
        ? `release test failed: ${what} no longer installs against the registry: ${broke}. An upstream release broke resolution; pin the peer range named here (docs/auth.md "Supported versions").`
        : `release test failed: npm install of ${what} failed:\n${stderr.slice(-4000)}`,
    );
  }
}

/** Every version of `name` installed anywhere under `dir/node_modules`, nested copies included. */
export async function installedVersions(dir: string, name: string): Promise<Set<string>> {
  const versions = new Set<string>();
  const folders = async (parent: string) =>
    (await readdir(parent, { withFileTypes: true }).catch(() => []))
      .filter((entry) => entry.isDirectory() && !entry.name.startsWith("."))
      .map((entry) => entry.name);
  const visitPackage = async (folder: string, packageName: string): Promise<void> => {
    if (packageName === name) {
      const manifest = JSON.parse(await readFile(path.join(folder, "package.json"), "utf8"));
      versions.add((manifest as { version: string }).version);
    }
    await visit(path.join(folder, "node_modules"));
  };
  const visit = async (modules: string): Promise<void> => {
    for (const entry of await folders(modules)) {
      if (!entry.startsWith("@")) await visitPackage(path.join(modules, entry), entry);
      else {
        for (const inner of await folders(path.join(modules, entry))) {
          await visitPackage(path.join(modules, entry, inner), `${entry}/${inner}`);
        }
      }
    }
  };
  await visit(path.join(dir, "node_modules"));
  return versions;
}

/**
 * Refuses a new app whose `node_modules` holds more than one workerd or esbuild: the template's
 * wrangler, Cloudflare's Vite and Vitest plugins and `@svc/cli` are pinned to agree.
 *
 * @example
 * ```ts
 * const runtimes = await checkOneRuntime(app); // "workerd 1.20261006.1, esbuild 0.28.2"
 * ```
 */
export async function checkOneRuntime(app: string): Promise<string> {
  const found: string[] = [];
  for (const name of ["workerd", "esbuild"]) {
    const versions = [...(await installedVersions(app, name))].sort();
    if (versions.length !== 1) {
      throw new Error(
        `release test failed: the new app holds ${versions.length} ${name} versions (${versions.join(", ")}); pin create-svc's templateDependencies so they agree`,
      );
    }
    found.push(`${name} ${versions[0]}`);
  }
  return found.join(", ");
}
