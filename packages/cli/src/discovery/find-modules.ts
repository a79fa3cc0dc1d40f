import { readdir } from "node:fs/promises";
import path from "node:path";

/** A module under `svc/` and the namespace its path gives (`admin/users.ts` → `admin/users`). */
export interface SourceModule {
  namespace: string;
  file: string;
}

const SKIPPED_FILES = new Set(["schema.ts"]);
const NAMESPACE = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/;

/**
 * Lists procedure modules under `dir`: every `.ts` file except `_generated/`,
 * `schema.ts`, tests and declaration files, sorted for stable output.
 */
export async function findModules(dir: string): Promise<SourceModule[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const modules: SourceModule[] = [];
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith(".ts")) continue;
    const file = path.join(entry.parentPath, entry.name);
    const relative = path.relative(dir, file).split(path.sep).join("/");
    if (relative.startsWith("_generated/") || SKIPPED_FILES.has(relative)) continue;
    if (/\.(test|spec|d)\.ts$/.test(relative)) continue;
    const namespace = relative.slice(0, -".ts".length);
    if (!NAMESPACE.test(namespace)) {
      throw new Error(
        `svc codegen: ${relative} cannot be a namespace; use letters, digits, _ and - in file and folder names`,
      );
    }
    modules.push({ namespace, file });
  }
  return modules.sort((a, b) =>
    a.namespace < b.namespace ? -1 : a.namespace > b.namespace ? 1 : 0,
  );
}
