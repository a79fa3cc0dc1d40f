import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { migrate } from "../src/index.ts";

const quiet = () => {};
const exampleApp = path.resolve(import.meta.dirname, "../../../examples/app");
const scratchDirs: string[] = [];

/** A throwaway copy of the example app inside the repo (so its packages resolve). */
async function exampleCopy(): Promise<string> {
  const dir = await mkdtemp(path.join(import.meta.dirname, ".tmp-migrate-"));
  scratchDirs.push(dir);
  for (const part of ["src", "svc", "migrations", "wrangler.jsonc", "package.json", ".dev.vars"]) {
    await cp(path.join(exampleApp, part), path.join(dir, part), { recursive: true });
  }
  return dir;
}

afterEach(async () => {
  for (const dir of scratchDirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe("svc migrate", () => {
  it("has the example app's auth migrations checked in and up to date", async () => {
    expect(await migrate({ appDir: exampleApp, check: true, log: quiet })).toEqual({
      sql: "",
      file: null,
    });
  });

  it("writes the whole schema as 0001 for an app without migrations, identical to the committed one", async () => {
    const dir = await exampleCopy();
    await rm(path.join(dir, "migrations"), { recursive: true });
    const result = await migrate({ appDir: dir, log: quiet });
    expect(result.file).toBe(path.join("migrations", "0001_svc_auth.sql"));
    expect(await readFile(path.join(dir, result.file!), "utf8")).toBe(
      await readFile(path.join(exampleApp, "migrations/0001_svc_auth.sql"), "utf8"),
    );
  });

  it("writes only the difference as the next migration when a plugin is added", async () => {
    const dir = await exampleCopy();
    // The example's plugin list lives in src/auth-plugins.ts.
    const authFile = path.join(dir, "src/auth-plugins.ts");
    const source = await readFile(authFile, "utf8");
    const edited = source
      .replace("    bearer(),\n", "    bearer(),\n    anonymous(),\n")
      .replace("  admin,\n", "  admin,\n  anonymous,\n");
    expect(edited).not.toBe(source);
    await writeFile(authFile, edited);
    const due = await migrate({ appDir: dir, check: true, log: quiet });
    expect(due.file).toBe(path.join("migrations", "0002_svc_auth.sql"));
    expect(await readdir(path.join(dir, "migrations"))).toEqual(["0001_svc_auth.sql"]);
    const written = await migrate({ appDir: dir, log: quiet });
    expect(written.sql).toMatch(/alter table "user" add column "isAnonymous"/);
    expect(written.sql).not.toMatch(/create table "session"/);
    expect(await migrate({ appDir: dir, check: true, log: quiet })).toEqual({
      sql: "",
      file: null,
    });
  });
});
