/**
 * `prepack` / `postpack` of every package: npm has no `publishConfig.exports`
 * (pnpm and yarn do), so at pack time this swaps the development manifest
 * (`exports` and `bin` pointing at `src/*.ts`, what tests and the example app
 * use) for the published one (`publishConfig.exports` / `publishConfig.bin`,
 * pointing at `dist/`), and puts it back afterwards. The original is kept in
 * `package.json.dev` (never packed) while the tarball is made.
 *
 * Usage (from a package directory): `node ../../scripts/pack-manifest.ts prepack|postpack`.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";

const MANIFEST = path.resolve("package.json");
const BACKUP = `${MANIFEST}.dev`;
const PUBLISHED_FIELDS = ["exports", "bin", "main", "types"] as const;

type Manifest = Record<string, unknown> & { publishConfig?: Record<string, unknown> };

/** The manifest as published: `publishConfig`'s entry points win, the rest of it stays. */
export function publishedManifest(manifest: Manifest): Manifest {
  const { publishConfig = {}, ...rest } = manifest;
  const published: Manifest = { ...rest };
  const remaining: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(publishConfig)) {
    if ((PUBLISHED_FIELDS as readonly string[]).includes(key)) published[key] = value;
    else remaining[key] = value;
  }
  if (Object.keys(remaining).length > 0) published.publishConfig = remaining;
  // These two point into this repository (../../scripts): meaningless in a tarball.
  const scripts = { ...(published.scripts as Record<string, string> | undefined) };
  delete scripts.prepack;
  delete scripts.postpack;
  if (Object.keys(scripts).length > 0) published.scripts = scripts;
  else delete published.scripts;
  return published;
}

const step = process.argv[2];
if (step === "prepack") {
  if (existsSync(BACKUP))
    throw new Error(`${BACKUP} exists: a previous pack did not finish; restore it first`);
  const manifest = JSON.parse(readFileSync(MANIFEST, "utf8")) as Manifest;
  renameSync(MANIFEST, BACKUP);
  writeFileSync(MANIFEST, `${JSON.stringify(publishedManifest(manifest), null, 2)}\n`);
} else if (step === "postpack") {
  if (existsSync(BACKUP)) renameSync(BACKUP, MANIFEST);
} else {
  throw new Error("usage: pack-manifest.ts prepack|postpack");
}
