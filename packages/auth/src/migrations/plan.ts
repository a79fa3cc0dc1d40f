import { invalidateSchemaChecks } from "@better-auth/core/db/internal";
import type { BetterAuthOptions } from "better-auth";
import { getAuthTables } from "better-auth/db";
import { getMigrations } from "better-auth/db/migration";
import { SVC_ADMIN_PLUGIN_ID } from "../admin/schema-plugin.ts";
import {
  pendingSearchIndexStatements,
  type SchemaObject,
  searchIndexObjectsQuery,
} from "../admin/search-index.ts";
import { SqlNames } from "../admin/sql-names.ts";
import {
  type ActivityObject,
  activityObjectsQuery,
  pendingActivityStatements,
} from "../admin/user-activity.ts";
import { userCounts } from "../admin/user-counts.ts";
import { isD1Like } from "../database.ts";
import { SvcAuthError } from "../errors.ts";
import { revocationLog } from "../revocation/log-schema.ts";
import { isBlankSqliteDatabase } from "./blank-database.ts";
import {
  type KeptObjects,
  keptObjectsQuery,
  pendingKeptStatements,
  type SchemaRow,
} from "./kept-objects.ts";

/** What better-auth's migrator would do to a database, and the way to do it. */
export interface MigrationPlan {
  /** One SQL statement per entry, without the trailing `;`, in execution order. */
  statements: string[];
  /**
   * Applies the plan. On D1 all statements go in one `batch`, which D1 runs
   * as a single transaction: it lands whole or not at all, so two isolates
   * racing never leave a half-built schema and the loser's re-diff comes back
   * empty. Elsewhere better-auth's own runner applies them one by one.
   */
  run(): Promise<void>;
}

/**
 * Diffs the schema of `options` (core tables + every plugin's) against
 * `options.database` with better-auth's own migrator, then adds svc's user
 * search index (an FTS5 table and its triggers, which better-auth's schema
 * cannot express), its user activity table (kept by triggers on `session`)
 * its revocation log (kept by triggers on `session` and `user`) and its user
 * counters (kept by triggers on `user` and the activity table) when
 * svc's admin schema is in `plugins` and the database is D1 or the blank one
 * of `compileMigrationsSql`. The database kind is checked
 * first: better-auth's migrator calls `process.exit(1)` when it finds no
 * Kysely-compatible database, which must never happen inside a worker.
 */
export async function planMigrations(options: BetterAuthOptions): Promise<MigrationPlan> {
  assertMigratable(options.database);
  const plan = await getMigrations(options);
  const statements = (await plan.compileMigrations())
    .split(";\n\n")
    .map((statement) => statement.replace(/;$/, "").trim())
    .filter((statement) => statement !== "");
  const activity = await activityPlan(options);
  statements.push(
    ...(await searchIndexPlan(options)),
    ...activity,
    ...(await keptPlan(options, revocationLog)),
    // The counters' triggers on the activity table go with it when it is rebuilt.
    ...(await keptPlan(options, userCounts, activity.length > 0)),
  );
  const database = options.database;
  if (!isD1Like(database)) return { statements, run: plan.runMigrations };
  const run = async () => {
    try {
      await database.batch(statements.map((statement) => database.prepare(statement)));
    } finally {
      // better-auth caches "schema checked" per database; make it look again, as its runner does.
      invalidateSchemaChecks(database);
    }
  };
  return { statements, run };
}

/** The search index statements `options.database` lacks (see `pendingSearchIndexStatements`). */
async function searchIndexPlan(options: BetterAuthOptions): Promise<string[]> {
  const database = options.database;
  if (!(options.plugins ?? []).some((plugin) => plugin.id === SVC_ADMIN_PLUGIN_ID)) return [];
  const names = new SqlNames(getAuthTables(options));
  if (isBlankSqliteDatabase(database)) return pendingSearchIndexStatements(names, []);
  if (!isD1Like(database)) return [];
  const query = searchIndexObjectsQuery(names);
  const existing = await database
    .prepare(query.sql)
    .bind(...query.binds)
    .all<SchemaObject>();
  return pendingSearchIndexStatements(names, existing.results);
}

/** The user activity statements `options.database` lacks (see `pendingActivityStatements`). */
async function activityPlan(options: BetterAuthOptions): Promise<string[]> {
  const database = options.database;
  if (!(options.plugins ?? []).some((plugin) => plugin.id === SVC_ADMIN_PLUGIN_ID)) return [];
  const names = new SqlNames(getAuthTables(options));
  if (isBlankSqliteDatabase(database)) return pendingActivityStatements(names, []);
  if (!isD1Like(database)) return [];
  const query = activityObjectsQuery(names);
  const existing = await database
    .prepare(query.sql)
    .bind(...query.binds)
    .all<ActivityObject>();
  return pendingActivityStatements(names, existing.results);
}

/** The statements `options.database` lacks for one set of svc's trigger-kept objects. */
async function keptPlan(
  options: BetterAuthOptions,
  build: (names: SqlNames) => KeptObjects,
  rebuild = false,
): Promise<string[]> {
  const database = options.database;
  if (!(options.plugins ?? []).some((plugin) => plugin.id === SVC_ADMIN_PLUGIN_ID)) return [];
  const names = new SqlNames(getAuthTables(options));
  const kept = build(names);
  const userTable = getAuthTables(options).user?.modelName ?? "user";
  if (isBlankSqliteDatabase(database)) return pendingKeptStatements(kept, [], userTable);
  if (!isD1Like(database)) return [];
  const query = keptObjectsQuery(kept.table, userTable);
  const existing = await database
    .prepare(query.sql)
    .bind(...query.binds)
    .all<SchemaRow>();
  return pendingKeptStatements(kept, existing.results, userTable, rebuild);
}

/** Database shapes better-auth's Kysely migrator understands (see its `createKyselyAdapter`). */
const KYSELY_MARKERS = ["db", "dialect", "createDriver", "connect", "getConnection", "aggregate"];

function assertMigratable(database: BetterAuthOptions["database"]): void {
  if (database === undefined || database === null) {
    throw new SvcAuthError(
      "AUTH_DATABASE_MISSING",
      "ensureMigrated needs an auth built with a database: createAuth({ database: svcDatabaseAdapter(env.DB), … }). " +
        "For SQL without a database use compileMigrationsSql(options).",
    );
  }
  if (isD1Like(database)) return;
  if (typeof database === "object" && KYSELY_MARKERS.some((marker) => marker in database)) return;
  throw new SvcAuthError(
    "AUTH_DATABASE_UNSUPPORTED",
    "ensureMigrated diffs D1 (svcDatabaseAdapter) and other Kysely-backed databases only; " +
      "this database adapter brings its own schema tooling (e.g. drizzle-kit, prisma migrate).",
  );
}
