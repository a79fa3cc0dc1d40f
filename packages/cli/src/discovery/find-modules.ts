import { readdir } from "node:fs/promises";
import path from "node:path";

/** A module under `svc/` and the namespace its path gives (`admin/users.ts` → `admin/users`). */
export interface SourceModule {
  namespace: string;
  file: string;
}

const SKIPPED_FILES = new Set(["schema.ts"]);
/** Where migrations live; they are discovered by {@link findMigrations}, never as procedure modules. */
const MIGRATIONS_DIR = "migrations/";
const MIGRATION_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;
const NAMESPACE = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/;

/**
 * Lists procedure modules under `dir`: every `.ts` file except `_generated/`,
 * `migrations/`, `schema.ts`, tests and declaration files, sorted for stable
 * output.
 */
export async function findModules(dir: string): Promise<SourceModule[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const modules: SourceModule[] = [];
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith(".ts")) continue;
    const file = path.join(entry.parentPath, entry.name);
    const relative = path.relative(dir, file).split(path.sep).join("/");
    if (relative.startsWith("_generated/") || relative.startsWith(MIGRATIONS_DIR)) continue;
    if (SKIPPED_FILES.has(relative)) continue;
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

/** A migration under `svc/migrations/`: its name is its file name. */
export interface MigrationModule {
  name: string;
  file: string;
}

/**
 * Lists `svc/migrations/<name>.ts` (tests and declaration files excepted),
 * sorted by name, which is the order shards run them in. A nested folder or
 * a name that cannot be a migration's fails with the file's path.
 */
export async function findMigrations(svcDir: string): Promise<MigrationModule[]> {
  const dir = path.join(svcDir, MIGRATIONS_DIR);
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const found: MigrationModule[] = [];
  for (const entry of entries) {
    if (entry.isDirectory())
      throw new Error(
        `svc codegen: svc/migrations/${entry.name}/ — migrations are files directly in svc/migrations/`,
      );
    if (!entry.isFile() || !entry.name.endsWith(".ts") || /\.(test|spec|d)\.ts$/.test(entry.name))
      continue;
    const name = entry.name.slice(0, -".ts".length);
    if (!MIGRATION_NAME.test(name))
      throw new Error(
        `svc codegen: svc/migrations/${entry.name} cannot be a migration name; use letters, digits, ".", "_" and "-"`,
      );
    found.push({ name, file: path.join(dir, entry.name) });
  }
  return found.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
