import { execFile } from "node:child_process";
import {
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rm,
  symlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * Issue 13: the packages as a user receives them. Builds every package, packs
 * each with npm (prepack swaps in the dist/ entry points), then checks the
 * tarballs' contents, lints them with publint, and imports them from a plain
 * Node script in a directory outside the repository.
 */

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../../../..");
const PACKAGES = [
  "server",
  "auth",
  "ratelimit",
  "client",
  "testing",
  "react",
  "cli",
  "dashboard",
  "create-svc",
];
const NODE = process.execPath;
let work: string;
/** package name → its unpacked directory */
const unpacked = new Map<string, string>();
/** package name → its tarball */
const tarballs = new Map<string, string>();
/** package name → the files in its tarball */
const contents = new Map<string, string[]>();

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), "svc-dist-"));
  await run(NODE, [path.join(ROOT, "scripts/build-packages.ts")], { cwd: ROOT });
  const packs = path.join(work, "packs");
  await mkdir(packs);
  for (const name of PACKAGES) {
    const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", packs], {
      cwd: path.join(ROOT, "packages", name),
    });
    const [info] = JSON.parse(stdout.slice(stdout.indexOf("["))) as {
      name: string;
      filename: string;
      files: { path: string }[];
    }[];
    if (!info) throw new Error(`npm pack answered nothing for ${name}`);
    contents.set(
      info.name,
      info.files.map((file) => file.path),
    );
    const dir = path.join(work, "node_modules", ...info.name.split("/"));
    await mkdir(dir, { recursive: true });
    await run("tar", ["-xzf", path.join(packs, info.filename), "-C", dir, "--strip-components=1"]);
    unpacked.set(info.name, dir);
  }
  // Third-party dependencies from the repository's install; @svc/* only from the tarballs.
  for (const entry of await readdir(path.join(ROOT, "node_modules"))) {
    if (entry === "@svc" || entry.startsWith(".")) continue;
    // Workspace links (create-svc, the example app) come from tarballs or not at all.
    const real = await realpath(path.join(ROOT, "node_modules", entry));
    if (!real.includes(`${path.sep}node_modules${path.sep}`)) continue;
    await symlink(path.join(ROOT, "node_modules", entry), path.join(work, "node_modules", entry));
  }
}, 600_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe("packed tarballs", () => {
  it("hold dist/ with declarations, and no test, fixture or screenshot file", () => {
    expect([...contents.keys()].sort()).toEqual(
      [
        "create-svc",
        ...PACKAGES.filter((name) => name !== "create-svc").map((name) => `@svc/${name}`),
      ].sort(),
    );
    for (const [name, files] of contents) {
      const unwanted = files.filter(
        (file) =>
          // create-svc's templates are the new app, their sample tests included.
          !/^template(-react)?\//.test(file) &&
          /(^|\/)(test|tests|fixtures?|screenshots|dev)\/|\.test\.|vitest/.test(file),
      );
      expect(unwanted, name).toEqual([]);
      expect(files, name).toContain("LICENSE");
      expect(files, name).toContain("dist/index.js");
      if (name.startsWith("@svc/") && name !== "@svc/dashboard") {
        expect(files, name).toContain("dist/index.d.ts");
      }
    }
    expect(contents.get("@svc/dashboard")).toEqual(
      expect.arrayContaining([
        "dist/index.js",
        "dist/files/app.js",
        "dist/files/index.html",
        "src/index.d.ts",
      ]),
    );
  });

  it("publish dist/ entry points, types first, and exact internal versions", async () => {
    for (const [name, dir] of unpacked) {
      const manifest = JSON.parse(await readFile(path.join(dir, "package.json"), "utf8")) as {
        private?: boolean;
        license: string;
        exports: Record<string, { types: string; default: string }>;
        dependencies?: Record<string, string>;
        scripts?: Record<string, string>;
      };
      expect(manifest.private, name).toBeUndefined();
      expect(manifest.license, name).toBe("MIT");
      expect(manifest.scripts?.prepack, name).toBeUndefined();
      for (const [subpath, target] of Object.entries(manifest.exports)) {
        expect(Object.keys(target)[0], `${name} ${subpath}`).toBe("types");
        expect(target.default, `${name} ${subpath}`).toMatch(/^\.\/dist\//);
      }
      for (const [dependency, range] of Object.entries(manifest.dependencies ?? {})) {
        // create-svc's template pins its own versions; its manifest has no @svc dependency.
        if (dependency.startsWith("@svc/")) expect(range, `${name} → ${dependency}`).toBe("0.1.0");
      }
    }
  });

  it("pass publint and arethetypeswrong (ESM-only: svc ships no CommonJS)", async () => {
    for (const [name, dir] of unpacked) {
      const { stdout } = await run(NODE, [path.join(ROOT, "node_modules/publint/src/cli.js"), dir]);
      expect(stdout, name).toContain("All good!");
    }
    const attw = path.join(ROOT, "node_modules/@arethetypeswrong/cli/dist/index.js");
    for (const [name, tarball] of tarballs) {
      // Exits non-zero on any problem in the profile's resolutions (node16 ESM, bundler).
      const { stdout } = await run(NODE, [
        attw,
        tarball,
        "--profile",
        "esm-only",
        "--format",
        "ascii",
      ]);
      expect(stdout, name).toContain("bundler: 🟢");
    }
  });
});

describe("from a plain Node script outside the repository", () => {
  it("imports the typed client and compileMigrationsSql (no cloudflare: in their graphs)", async () => {
    const script = path.join(work, "migrate.mjs");
    await writeFile(
      script,
      [
        'import { createClient } from "@svc/client";',
        'import { compileMigrationsSql } from "@svc/auth/migrations";',
        'const client = createClient({ url: "http://127.0.0.1:1" });',
        'const sql = await compileMigrationsSql({ secret: "x".repeat(40), plugins: [] });',
        "console.log(JSON.stringify({ query: typeof client.query, head: sql.split('\\n')[0], user: sql.includes('create table \"user\"') }));",
      ].join("\n"),
    );
    const { stdout } = await run(NODE, [script], { cwd: work });
    expect(JSON.parse(stdout)).toEqual({
      query: "function",
      head: "-- @svc/auth schema, plugins: none. Generated by compileMigrationsSql; do not edit.",
      user: true,
    });
  });

  it("runs the compiled svc bin: --version, and a clear error when wrangler is missing", async () => {
    const bin = path.join(unpacked.get("@svc/cli") ?? "", "bin/svc.js");
    const version = await run(NODE, [bin, "--version"]);
    expect(version.stdout).toBe("0.1.0\n");
    // Outside `work`, whose node_modules links the repository's wrangler.
    const project = await mkdtemp(path.join(tmpdir(), "svc-no-wrangler-"));
    await writeFile(path.join(project, "package.json"), "{}");
    const failed = await run(NODE, [bin, "dev", "--app", project]).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed).toMatchObject({ code: 1 });
    const { stderr } = failed as { stderr: string };
    expect(stderr).toContain("wrangler is not installed");
    expect(stderr).toContain("npm install --save-dev wrangler");
    expect(stderr).not.toMatch(/^\s+at /m);
    await rm(project, { recursive: true, force: true });
  });
});

describe("an app scaffolded by the packed create-svc, on the packed packages", () => {
  let app: string;
  const bin = (name: string, file: string) => path.join(work, "node_modules", name, file);

  beforeAll(async () => {
    // Inside `work`, so the app resolves the unpacked @svc/* and the repository's tools.
    app = path.join(work, "app");
    await run(NODE, [bin("create-svc", "bin/create-svc.js"), app, "--yes"]);
    await run(NODE, [bin("@svc/cli", "bin/svc.js"), "codegen", "--app", app]);
  }, 120_000);

  it("type-checks with 0 errors under the template's strict settings", async () => {
    const result = await run(NODE, [bin("typescript", "bin/tsc"), "-p", app]).catch(
      (error: { stdout: string }) => error,
    );
    expect(result.stdout.split("\n").slice(0, 20).join("\n")).toBe("");
  });

  it("bundles for deploy with the dashboard inside, nothing copied by hand", async () => {
    const out = path.join(work, "bundle");
    const { stdout } = await run(
      NODE,
      [bin("wrangler", "bin/wrangler.js"), "deploy", "--dry-run", "--outdir", out],
      { cwd: app, env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
    );
    const size = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(stdout);
    expect(size, stdout).not.toBeNull();
    console.log(`scaffolded app bundle: ${size?.[1]} KiB, gzip ${size?.[2]} KiB`);
    const worker = await readFile(path.join(out, "worker.js"), "utf8");
    expect(worker).toContain("/_svc/dashboard");
  });

  it("passes its own tests in workerd", async () => {
    const { stdout } = await run(NODE, [bin("vitest", "vitest.mjs"), "run"], {
      cwd: app,
      env: { ...process.env, NO_COLOR: "1", CI: "1" },
    });
    expect(stdout).toMatch(/Tests\s+2 passed/);
  }, 120_000);
});
