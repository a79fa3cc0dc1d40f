/**
 * `@svc/auth/migrations`: the Node-side entry point for migration files.
 * Nothing here imports `cloudflare:*` or Durable Object code, so a plain Node
 * script (or `svc migrate`) can import it where `@svc/auth` as a whole, built
 * for Workers, cannot be loaded.
 *
 * @example
 * ```ts
 * import { compileMigrationsSql } from "@svc/auth/migrations";
 * const sql = await compileMigrationsSql({ secret: "placeholder", plugins: [] });
 * ```
 * @packageDocumentation
 */
export { type CompileMigrationsOptions, compileMigrationsSql } from "./compile-sql.ts";
