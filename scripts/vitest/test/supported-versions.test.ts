import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SUBPATH_PLUGINS } from "../../../packages/auth/src/plugins/on-subpath.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");
/** A package manifest, as far as these checks read it. */
interface Manifest {
  version: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  templateDependencies: Record<string, string>;
  overrides: Record<string, string>;
}
const json = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), "utf8")) as Manifest;
const installed = (name: string): string => json(`node_modules/${name}/package.json`).version;

/** The rows of docs/auth.md's "Supported versions" table: package, version, required/optional. */
function supportedVersions(): { name: string; version: string; optional: boolean }[] {
  const docs = readFileSync(path.join(ROOT, "docs/auth.md"), "utf8");
  const table = /<!-- supported-versions:start -->\n([\s\S]*?)<!-- supported-versions:end -->/.exec(
    docs,
  );
  if (!table?.[1]) throw new Error("docs/auth.md has no supported-versions table");
  return table[1]
    .split("\n")
    .map((line) => /^\| `([^`]+)` +\| ([\d.]+) +\| (required|optional)/.exec(line))
    .filter((match) => match !== null)
    .map(([, name = "", version = "", kind = ""]) => ({
      name,
      version,
      optional: kind === "optional",
    }));
}

describe("docs/auth.md's supported versions", () => {
  const rows = supportedVersions();
  const auth = json("packages/auth/package.json");

  it("lists every peer of @svc/auth, and only those", () => {
    expect(rows.map((row) => row.name).sort()).toEqual(Object.keys(auth.peerDependencies).sort());
  });

  it.each(rows)("$name $version is the exact peer, dev dependency and installed version", (row) => {
    expect(auth.peerDependencies[row.name]).toBe(row.version);
    expect(auth.devDependencies[row.name]).toBe(row.version);
    expect(Boolean(auth.peerDependenciesMeta?.[row.name]?.optional)).toBe(row.optional);
    expect(installed(row.name)).toBe(row.version);
  });

  it("the templates pin the better-auth the table names", () => {
    const templates = json("packages/create-svc/package.json");
    const betterAuth = rows.find((row) => row.name === "better-auth");
    expect(templates.templateDependencies["better-auth"]).toBe(betterAuth?.version);
  });

  it("the documented overrides are better-auth's own versions, and the repository's", () => {
    const docs = readFileSync(path.join(ROOT, "docs/auth.md"), "utf8");
    const block = /```json\n(\{\n {2}"dependencies": \{ "@better-auth\/passkey"[\s\S]*?)```/.exec(
      docs,
    );
    const documented = JSON.parse(block?.[1] ?? "{}") as { overrides: Record<string, string> };
    const betterAuth = json("node_modules/better-auth/package.json");
    const root = json("package.json");
    expect(Object.keys(documented.overrides).length).toBe(3);
    for (const [name, version] of Object.entries(documented.overrides)) {
      expect(betterAuth.dependencies[name]).toBe(version);
      expect(root.overrides[name]).toBe(version);
      expect(installed(name)).toBe(version);
    }
  });

  it("the error of a plugin on its subpath names the version of the table", () => {
    for (const { pkg, version } of Object.values(SUBPATH_PLUGINS)) {
      expect(rows.find((row) => row.name === pkg)).toEqual({ name: pkg, version, optional: true });
    }
  });
});
