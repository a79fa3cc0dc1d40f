import type { BetterAuthOptions } from "better-auth";
import { SvcAuthError } from "../errors.ts";
import { planMigrations } from "./plan.ts";
import { schemaKey } from "./schema-key.ts";

/** The part of an auth instance {@link ensureMigrated} reads. */
export interface MigratableAuth {
  options: BetterAuthOptions;
}

/**
 * How many times a run re-diffs after its DDL failed. A failure usually means
 * another isolate applied the same statements first; the next diff then comes
 * back shorter or empty.
 */
const ATTEMPTS = 4;

/** Runs per database binding, then per schema: settled successes stay, failures are dropped. */
const runs = new WeakMap<object, Map<string, Promise<void>>>();

/**
 * Brings the database up to the schema of the enabled plugins: diffs it with
 * better-auth's migrator and applies the missing tables, columns and indexes.
 *
 * - Idempotent, and cached per database binding and per computed schema (not
 *   per auth object), so a warm isolate answers from memory even when it
 *   builds a new auth instance per request.
 * - Concurrent callers share one in-flight run; a failed run is forgotten so
 *   the next call retries.
 * - Two cold isolates may run it at once: when DDL fails because the other
 *   one got there first, the run diffs again and applies what is still
 *   missing.
 * - Works on D1: better-auth's D1 dialect skips D1's internal `_cf_*` tables,
 *   whose introspection D1 refuses with `SQLITE_AUTH`.
 *
 * Meant for development and small deployments; in production prefer
 * {@link compileMigrationsSql} and `wrangler d1 migrations apply`.
 *
 * @throws {SvcAuthError} `AUTH_DATABASE_MISSING`, `AUTH_DATABASE_UNSUPPORTED`,
 * `AUTH_MIGRATION_FAILED` (with the database error as `cause`).
 * @example
 * ```ts
 * async fetch(request, env, ctx) {
 *   await ensureMigrated(auth);
 *   return (await handleAuthRequest(auth, request)) ?? worker.fetch(request, env, ctx);
 * }
 * ```
 */
export function ensureMigrated(auth: MigratableAuth): Promise<void> {
  const { options } = auth;
  const database = options.database;
  if (typeof database !== "object" || database === null) return migrate(options);
  const key = schemaKey(options);
  let byKey = runs.get(database);
  if (byKey === undefined) {
    byKey = new Map();
    runs.set(database, byKey);
  }
  const cached = byKey.get(key);
  if (cached) return cached;
  const run = migrate(options).catch((error: unknown) => {
    if (byKey.get(key) === run) byKey.delete(key);
    throw error;
  });
  byKey.set(key, run);
  return run;
}

async function migrate(options: BetterAuthOptions): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    let statements: string[] = [];
    try {
      const plan = await planMigrations(options);
      statements = plan.statements;
      if (statements.length === 0) return;
      await plan.run();
      return;
    } catch (error) {
      if (error instanceof SvcAuthError) throw error;
      if (attempt < ATTEMPTS && statements.length > 0) continue;
      throw new SvcAuthError(
        "AUTH_MIGRATION_FAILED",
        `could not bring the auth schema up to date: ${describe(error)}` +
          (statements.length > 0 ? `\nPending statements:\n${statements.join(";\n")};` : ""),
        { cause: error },
      );
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
