import { readdir } from "node:fs/promises";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";

/**
 * Opens the example app's local D1 database (the SQLite file wrangler dev
 * keeps under its state folder) read-only, so tests can see what the app
 * stored — e.g. the password hash a response must never contain.
 */
export async function openLocalD1(stateDir: string): Promise<DatabaseSync> {
  const root = path.join(stateDir, "v3", "d1");
  const entries = await readdir(root, { recursive: true });
  const file = entries.find((entry) => entry.endsWith(".sqlite") && !entry.includes("metadata"));
  if (!file) throw new Error(`no D1 database under ${root}`);
  return new DatabaseSync(path.join(root, file), { readOnly: true });
}
