import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkOneRuntime, installedVersions, resolutionFailure } from "../../release-install.ts";

/** The ERESOLVE report npm 11 printed for a new app on 2026-12-04 (issue 46), shortened. */
const ERESOLVE = `npm error code ERESOLVE
npm error ERESOLVE could not resolve
npm error
npm error While resolving: @svc/auth@0.1.0
npm error Found: @better-auth/core@1.7.7
npm error node_modules/@better-auth/core
npm error
npm error Could not resolve dependency:
npm error peer @better-auth/core@"^1.7.29" from @better-auth/oauth-provider@1.7.29
npm error node_modules/@better-auth/oauth-provider`;

describe("the release test's install checks", () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });
  const tree = async (packages: Record<string, string>) => {
    const dir = await mkdtemp(path.join(tmpdir(), "svc-install-"));
    dirs.push(dir);
    for (const [where, version] of Object.entries(packages)) {
      await mkdir(path.join(dir, where), { recursive: true });
      const name = where.split("node_modules/").at(-1);
      await writeFile(path.join(dir, where, "package.json"), JSON.stringify({ name, version }));
    }
    return dir;
  };

  it("names the edge an upstream release broke, what it resolved and what it found", () => {
    expect(resolutionFailure(ERESOLVE)).toBe(
      'peer @better-auth/core@"^1.7.29" from @better-auth/oauth-provider@1.7.29 (while resolving @svc/auth@0.1.0; found @better-auth/core@1.7.7)',
    );
    expect(resolutionFailure("npm error code E404\nnpm error 404 Not Found")).toBeUndefined();
  });

  it("finds nested and scoped copies of a package", async () => {
    const dir = await tree({
      "node_modules/workerd": "1.2",
      "node_modules/@cloudflare/vite-plugin/node_modules/workerd": "1.1",
      "node_modules/@cloudflare/vite-plugin": "1.63.1",
      "node_modules/esbuild": "0.28.2",
    });
    expect([...(await installedVersions(dir, "workerd"))].sort()).toEqual(["1.1", "1.2"]);
    expect([...(await installedVersions(dir, "@cloudflare/vite-plugin"))]).toEqual(["1.63.1"]);
    await expect(checkOneRuntime(dir)).rejects.toThrow("holds 2 workerd versions (1.1, 1.2)");
  });

  it("accepts one workerd and one esbuild, wherever they sit", async () => {
    const dir = await tree({
      "node_modules/wrangler/node_modules/workerd": "1.20261006.1",
      "node_modules/esbuild": "0.28.2",
      "node_modules/wrangler": "4.149.0",
    });
    await expect(checkOneRuntime(dir)).resolves.toBe("workerd 1.20261006.1, esbuild 0.28.2");
  });
});
