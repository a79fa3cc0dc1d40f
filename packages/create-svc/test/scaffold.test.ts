import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scaffold } from "../src/scaffold.ts";

const run = promisify(execFile);
const BIN = path.resolve(import.meta.dirname, "../src/index.ts");
let work: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), "create-svc-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const readVars = async (dir: string) =>
  Object.fromEntries(
    (await readFile(path.join(dir, ".dev.vars"), "utf8"))
      .split("\n")
      .filter((line) => /^[A-Z_]+=/.test(line))
      .map((line) => line.split("=") as [string, string]),
  );

describe("create-svc", () => {
  it("writes the app with its name, pinned versions and fresh random secrets", async () => {
    const first = await scaffold({ targetDir: path.join(work, "notes-app") });
    const second = await scaffold({ targetDir: path.join(work, "other-app") });
    expect(first.name).toBe("notes-app");
    expect(first.files).toEqual(
      expect.arrayContaining([
        ".gitignore",
        ".dev.vars",
        "package.json",
        "wrangler.jsonc",
        "tsconfig.json",
        "worker-configuration.d.ts",
        "src/worker.ts",
        "src/auth.ts",
        "svc/schema.ts",
        "svc/notes.ts",
        "test/notes.test.ts",
        "README.md",
      ]),
    );
    for (const file of first.files) {
      const text = await readFile(path.join(first.targetDir, file), "utf8");
      expect(text, file).not.toMatch(/\{\{[^}]+\}\}/);
    }
    const manifest = JSON.parse(await readFile(path.join(first.targetDir, "package.json"), "utf8"));
    expect(manifest.name).toBe("notes-app");
    expect(manifest.dependencies["@svc/auth"]).toBe("0.1.0");
    expect(manifest.devDependencies.wrangler).toMatch(/^\d/);
    const [a, b] = [await readVars(first.targetDir), await readVars(second.targetDir)];
    expect(a.SVC_ADMIN_TOKEN).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.AUTH_SECRET).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.SVC_ADMIN_TOKEN).not.toBe(b.SVC_ADMIN_TOKEN);
    expect(a.AUTH_SECRET).not.toBe(a.SVC_ADMIN_TOKEN);
    expect(JSON.stringify(a)).not.toContain("local-dev");
    // `wrangler dev` and `vite dev` print one short line per call (docs/observability.md).
    expect(a.SVC_LOG_FORMAT).toBe("text");
  });

  it("writes the React template over the API one: the UI, Vite, its browser test, one of each file", async () => {
    const app = await scaffold({ targetDir: path.join(work, "react-app"), template: "react" });
    expect(app.template).toBe("react");
    expect(app.files).toEqual(
      expect.arrayContaining([
        "index.html",
        "vite.config.ts",
        "ui/main.tsx",
        "ui/Notes.tsx",
        "ui/SignIn.tsx",
        "test/browser/notes.browser.ts",
        "test/notes.test.ts",
        "src/worker.ts",
      ]),
    );
    expect(new Set(app.files).size).toBe(app.files.length);
    for (const file of app.files) {
      const text = await readFile(path.join(app.targetDir, file), "utf8");
      expect(text, file).not.toMatch(/\{\{[^}]+\}\}/);
    }
    const manifest = JSON.parse(await readFile(path.join(app.targetDir, "package.json"), "utf8"));
    expect(manifest.dependencies["@svc/react"]).toBe("0.1.0");
    expect(manifest.devDependencies["@cloudflare/vite-plugin"]).toMatch(/^\^?\d/);
    expect(manifest.scripts.deploy).toBe("npm run build && wrangler deploy");
    const wrangler = await readFile(path.join(app.targetDir, "wrangler.jsonc"), "utf8");
    expect(wrangler).toContain('"not_found_handling": "single-page-application"');
    await expect(
      scaffold({ targetDir: path.join(work, "vue-app"), template: "vue" as "react" }),
    ).rejects.toThrow(/no template "vue"; choose one of api, react/);
  });

  it("refuses a non-empty directory and a bad name, writing nothing", async () => {
    const busy = path.join(work, "busy");
    await mkdir(busy);
    await writeFile(path.join(busy, "keep.txt"), "mine");
    await expect(scaffold({ targetDir: busy })).rejects.toThrow(/is not empty/);
    await expect(scaffold({ targetDir: path.join(work, "Bad Name") })).rejects.toThrow(
      /not a valid app name/,
    );
    expect(await readFile(path.join(busy, "keep.txt"), "utf8")).toBe("mine");
  });

  it("runs non-interactively with --yes, and says what to pass without a terminal", async () => {
    const { stdout } = await run(process.execPath, [BIN, "cli-app", "--yes"], { cwd: work });
    expect(stdout).toContain("npm install && npm run dev");
    expect(stdout).toContain("from the api template");
    const react = await run(process.execPath, [BIN, "cli-react", "--template", "react"], {
      cwd: work,
    });
    expect(react.stdout).toContain("from the react template");
    expect(react.stdout).toContain("wrote ui/main.tsx");
    expect(stdout).toContain("wrote .dev.vars");
    const failed = await run(process.execPath, [BIN], { cwd: work }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed).toMatchObject({ code: 1 });
    expect((failed as { stderr: string }).stderr).toContain(
      "npm create svc@latest my-app -- --yes",
    );
  });
});
