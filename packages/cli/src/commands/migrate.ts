import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { unstable_splitSqlQuery } from "wrangler";
import { bundleForWorkerd } from "../discovery/bundle.ts";
import { runInWorkerd } from "../discovery/run-in-workerd.ts";

/** Options of {@link migrate}. */
export interface MigrateOptions {
  /** The app's root (holds `wrangler.jsonc`). */
  appDir: string;
  /** Module (relative to the app) that exports the auth instance as `auth`. @default "src/auth.ts" */
  authModule?: string;
  /** Folder of wrangler D1 migrations. @default "migrations" */
  migrationsDir?: string;
  /** Only report whether a migration is due; write nothing. */
  check?: boolean;
  /** Progress lines. @default console.error */
  log?: (line: string) => void;
}

/** What {@link migrate} found or wrote. */
export interface MigrateResult {
  /** The SQL still missing after the existing migrations ("" when none). */
  sql: string;
  /** The file written (or due, with `check`), relative to the app; `null` when up to date. */
  file: string | null;
}

const MIGRATION_FILE = /^(\d{4})_.*\.sql$/;

function migrationEntry(authModule: string): string {
  return [
    `import { auth } from ${JSON.stringify(authModule)};`,
    'import { compileMigrationsSql } from "@svc/auth";',
    "export default {",
    "  async fetch(request) {",
    "    const { statements } = await request.json();",
    "    const database = auth.options.database;",
    "    if (statements.length > 0) await database.batch(statements.map((s) => database.prepare(s)));",
    "    return Response.json({ sql: await compileMigrationsSql({ ...auth.options, database }) });",
    "  },",
    "};",
  ].join("\n");
}

/**
 * Writes the next wrangler D1 migration for the app's auth schema: it loads the
 * app's `auth` in workerd, replays the existing migrations on a scratch D1,
 * and asks `compileMigrationsSql` for what is still missing. Nothing missing,
 * nothing written.
 *
 * @example
 * ```ts
 * await migrate({ appDir: "examples/app" }); // writes migrations/0002_svc_auth.sql if the plugins changed
 * ```
 */
export async function migrate(options: MigrateOptions): Promise<MigrateResult> {
  const log = options.log ?? ((line: string) => console.error(line));
  const appDir = path.resolve(options.appDir);
  const authModule = path.resolve(appDir, options.authModule ?? "src/auth.ts");
  if (!existsSync(authModule))
    throw new Error(`svc migrate: no auth module at ${authModule} (use --auth)`);
  const dir = path.join(appDir, options.migrationsDir ?? "migrations");
  const existing = existsSync(dir)
    ? (await readdir(dir)).filter((name) => MIGRATION_FILE.test(name)).sort()
    : [];
  const migrations = await Promise.all(
    existing.map((name) => readFile(path.join(dir, name), "utf8")),
  );
  log(`svc migrate: replaying ${existing.length} migration(s) and comparing with the auth schema`);
  const script = await bundleForWorkerd(appDir, migrationEntry(authModule), "svc-migrate.js");
  const statements = migrations
    .flatMap((file) => unstable_splitSqlQuery(file))
    .filter((statement) => statement.trim() !== "");
  const { sql } = await runInWorkerd<{ sql: string }>(appDir, script, { statements });
  if (sql === "") {
    log("svc migrate: the auth schema is up to date");
    return { sql, file: null };
  }
  const last = existing.at(-1);
  const next = String((last ? Number(MIGRATION_FILE.exec(last)?.[1]) : 0) + 1).padStart(4, "0");
  const file = path.join(path.relative(appDir, dir), `${next}_svc_auth.sql`);
  if (options.check) {
    log(`svc migrate: a migration is due (${file})`);
  } else {
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(appDir, file), sql);
    log(`svc migrate: wrote ${file}; apply it with \`wrangler d1 migrations apply <database>\``);
  }
  return { sql, file };
}
