import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { withStaticAssets } from "./static-assets.ts";

/**
 * The templates: `api` (the default) is a backend with REST, auth and the
 * dashboard; `react` adds a Vite + React UI served by the same worker, with
 * sign-in pages and live, optimistic notes.
 */
export const TEMPLATES = ["api", "react"] as const;
/** One of {@link TEMPLATES}. */
export type TemplateName = (typeof TEMPLATES)[number];

/** Options of {@link scaffold}. */
export interface ScaffoldOptions {
  /** Directory to create; must not exist, or be empty. */
  targetDir: string;
  /** Which app to write. @default "api" */
  template?: TemplateName;
  /** The app's name (package name, worker name); default: the directory's base name. */
  name?: string;
  /** Reports each written file (progress). */
  onFile?: (relativePath: string) => void;
}

/** What {@link scaffold} wrote. */
export interface ScaffoldResult {
  targetDir: string;
  name: string;
  template: TemplateName;
  files: string[];
}

/** A mistake the user can fix (bad name, non-empty directory); printed without a stack. */
export class CreateSvcError extends Error {
  override readonly name = "CreateSvcError";
}

const TEMPLATE_DIR = path.resolve(import.meta.dirname, "../template");
/** What the React template changes and adds over the API template (same paths win). */
const REACT_OVERLAY_DIR = path.resolve(import.meta.dirname, "../template-react");
/** Files stored under another name, so npm packs and ignores them as it should. */
const RENAMED: Record<string, string> = { _gitignore: ".gitignore" };

/** The versions the template pins: svc's own and the tools it was tested with. */
async function versions(): Promise<Record<string, string>> {
  const manifest = JSON.parse(
    await readFile(path.resolve(import.meta.dirname, "../package.json"), "utf8"),
  ) as { version: string; templateDependencies: Record<string, string> };
  const out: Record<string, string> = { svcVersion: manifest.version };
  for (const [name, range] of Object.entries(manifest.templateDependencies)) {
    out[`dep:${name}`] = range;
  }
  return out;
}

/** A random secret of 32 bytes, base64url: 43 characters. */
function secret(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * Whether `name` can be an npm package and worker name: lowercase letters,
 * digits and dashes, starting with a letter, at most 63 characters.
 *
 * @example
 * ```ts
 * isValidAppName("my-app"); // true
 * isValidAppName("My App"); // false
 * ```
 */
export function isValidAppName(name: string): boolean {
  return /^[a-z][a-z0-9-]{0,62}$/.test(name);
}

async function* templateFiles(dir: string, prefix = ""): AsyncGenerator<string> {
  for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) yield* templateFiles(path.join(dir, entry.name), relative);
    else yield relative;
  }
}

/**
 * Writes a new svc app into `targetDir`: the template with its name and
 * pinned versions filled in, and a `.dev.vars` with fresh random secrets
 * (never a fixed token).
 *
 * @example
 * ```ts
 * await scaffold({ targetDir: "my-app" }); // then: cd my-app && npm install && npm run dev
 * ```
 */
export async function scaffold(options: ScaffoldOptions): Promise<ScaffoldResult> {
  const targetDir = path.resolve(options.targetDir);
  const name = options.name ?? path.basename(targetDir);
  if (!isValidAppName(name)) {
    throw new CreateSvcError(
      `create-svc: ${JSON.stringify(name)} is not a valid app name: use lowercase letters, digits and dashes, starting with a letter (e.g. my-app).`,
    );
  }
  if (existsSync(targetDir) && (await readdir(targetDir)).length > 0) {
    throw new CreateSvcError(
      `create-svc: ${targetDir} is not empty; choose a new directory (nothing was written).`,
    );
  }
  const template = options.template ?? "api";
  if (!(TEMPLATES as readonly string[]).includes(template)) {
    throw new CreateSvcError(
      `create-svc: no template ${JSON.stringify(template)}; choose one of ${TEMPLATES.join(", ")}.`,
    );
  }
  const values: Record<string, string> = { name, ...(await versions()) };
  const fill = (text: string) =>
    text.replace(/\{\{([^}]+)\}\}/g, (match, key: string) => values[key] ?? match);
  // The overlay's files replace the base's of the same path; each file is written once.
  const sources = new Map<string, string>();
  const layers = template === "react" ? [TEMPLATE_DIR, REACT_OVERLAY_DIR] : [TEMPLATE_DIR];
  for (const layer of layers) {
    for await (const relative of templateFiles(layer)) {
      const base = path.basename(relative);
      sources.set(
        path.join(path.dirname(relative), RENAMED[base] ?? base),
        path.join(layer, relative),
      );
    }
  }
  const files: string[] = [];
  for (const [target, source] of [...sources].sort(([a], [b]) => a.localeCompare(b))) {
    let text = fill(await readFile(source, "utf8"));
    if (template === "react" && target === "wrangler.jsonc") text = withStaticAssets(text);
    await mkdir(path.dirname(path.join(targetDir, target)), { recursive: true });
    await writeFile(path.join(targetDir, target), text);
    files.push(target);
    options.onFile?.(target);
  }
  const devVars = [
    "# Local development secrets, generated by create-svc. Never commit this file;",
    "# deployed apps set their own with `wrangler secret put`.",
    `SVC_ADMIN_TOKEN=${secret()}`,
    `AUTH_SECRET=${secret()}`,
    `SVC_STORAGE_SECRET=${secret()}`,
    "# One short line per call in the dev terminal; `json` prints the record as production does.",
    "SVC_LOG_FORMAT=text",
    "",
  ].join("\n");
  await writeFile(path.join(targetDir, ".dev.vars"), devVars, { mode: 0o600 });
  files.push(".dev.vars");
  options.onFile?.(".dev.vars");
  return { targetDir, name, template, files };
}
