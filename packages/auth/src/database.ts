import { SvcAuthError } from "./errors.ts";

/**
 * The `database` option for a D1 binding. better-auth drives D1 through its
 * own Kysely dialect; this checks the binding is really there, because a
 * missing `d1_databases` entry otherwise surfaces far away as a confusing
 * adapter error.
 *
 * @example
 * ```ts
 * createAuth({ secret: env.AUTH_SECRET, database: svcDatabaseAdapter(env.DB) });
 * ```
 */
export function svcDatabaseAdapter(binding: D1Database): D1Database {
  if (!isD1Like(binding)) {
    throw new SvcAuthError(
      "AUTH_DATABASE_NOT_D1",
      `svcDatabaseAdapter expects a D1 binding (env.DB), got ${describe(binding)}. ` +
        'Declare it in wrangler.jsonc under "d1_databases" and pass env.<binding>.',
    );
  }
  return binding;
}

/** True for an object with D1's `prepare`, `batch` and `exec`. */
export function isD1Like(value: unknown): value is D1Database {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return (
    typeof candidate.prepare === "function" &&
    typeof candidate.batch === "function" &&
    typeof candidate.exec === "function"
  );
}

function describe(value: unknown): string {
  if (value === undefined || value === null) return String(value);
  return typeof value === "object" ? "an object without prepare/batch/exec" : typeof value;
}
