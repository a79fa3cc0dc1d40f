import { type CronJobs, isCronJobs } from "../cron/jobs.ts";
import { type HttpRouter, isHttpRouter } from "../http-actions/router.ts";
import {
  type CronManifest,
  cronManifestOf,
  type HttpRouteManifest,
  httpManifestOf,
  manifestOf,
  type ProcedureManifest,
  type QueueManifest,
  queueManifestOf,
  registryFromModules,
} from "../manifest/manifest.ts";
import { checkMigrations, isMigration, type MigrationRegistry } from "../migrations/define.ts";
import { buildOpenApi, type OpenApiDocument, type OpenApiOptions } from "../openapi/build.ts";
import { isQueueConsumers, type QueueConsumers } from "../queue/consumers.ts";
import type { SchemaDefinition } from "../schema/define.ts";
import { type SchemaSnapshot, snapshotSchema } from "../schema/snapshot.ts";

/** What `svc codegen` asks the discovery worker for. */
export interface DescribeInput {
  openapi?: OpenApiOptions;
}

/** What the discovery worker answers. */
export interface AppDescription {
  manifest: ProcedureManifest[];
  openapi: OpenApiDocument;
  /** Routes of `svc/http.ts`; `null` when the app has none. */
  http: HttpRouteManifest[] | null;
  /** Jobs of `svc/crons.ts`; `null` when the app has none. */
  crons: CronManifest[] | null;
  /** Consumers of `svc/queues.ts`; `null` when the app has none. */
  queues: QueueManifest[] | null;
  /** The tables of `svc/schema.ts`; `null` when the app has none. */
  schema: SchemaSnapshot | null;
  /** The migrations of `svc/migrations/`, sorted by name. */
  migrations: MigrationManifest[];
}

/** What codegen knows about one migration. */
export interface MigrationManifest {
  /** The file name under `svc/migrations/`, without `.ts`. */
  name: string;
  table: string;
  /** A table removal (`defineMigration({ table, drop: true })`). */
  drop: boolean;
}

/** The data side of an app: `svc/schema.ts`'s default export and each `svc/migrations/<name>.ts`'s. */
export interface DataModules {
  schema?: unknown;
  migrations?: Readonly<Record<string, unknown>>;
}

function describeData(data: DataModules): Pick<AppDescription, "schema" | "migrations"> {
  const { schema } = data;
  if (
    schema !== undefined &&
    (typeof schema !== "object" || schema === null || !("tables" in schema))
  )
    throw new Error("svc: svc/schema.ts must `export default` a defineSchema(...)");
  const migrations = data.migrations ?? {};
  for (const [name, migration] of Object.entries(migrations)) {
    if (!isMigration(migration))
      throw new Error(
        `svc: svc/migrations/${name}.ts must \`export default\` a defineMigration(...)`,
      );
  }
  const tables = new Set(Object.keys((schema as SchemaDefinition | undefined)?.tables ?? {}));
  checkMigrations(migrations as MigrationRegistry, tables);
  return {
    schema: schema === undefined ? null : snapshotSchema(schema as SchemaDefinition),
    migrations: Object.entries(migrations as MigrationRegistry)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, migration]) => ({ name, table: migration.table, drop: migration.drop })),
  };
}

/** Where each entry point is declared, and what its default export must be. */
const ENTRY_MODULES = {
  http: { check: isHttpRouter, make: "httpRouter()" },
  crons: { check: isCronJobs, make: "cronJobs()" },
  queues: { check: isQueueConsumers, make: "queueConsumers()" },
} as const;

function entryPoint(
  modules: Readonly<Record<string, Record<string, unknown>>>,
  name: keyof typeof ENTRY_MODULES,
): unknown {
  const { check, make } = ENTRY_MODULES[name];
  for (const [namespace, module] of Object.entries(modules)) {
    if (namespace !== name && check(module.default)) {
      throw new Error(
        `svc: svc/${namespace}.ts exports a ${make} by default; it belongs in svc/${name}.ts`,
      );
    }
  }
  const module = Object.hasOwn(modules, name) ? modules[name] : undefined;
  if (module === undefined) return undefined;
  if (!check(module.default)) {
    throw new Error(`svc: svc/${name}.ts must \`export default\` a ${make}`);
  }
  return module.default;
}

/**
 * Describes an app from its modules under `svc/`: the procedures, the HTTP
 * routes of `svc/http.ts`, the jobs of `svc/crons.ts`, the consumers of
 * `svc/queues.ts`, the tables of `svc/schema.ts` and the migrations of
 * `svc/migrations/`. Runs inside workerd during `svc codegen`, so everything
 * is checked by the same code that serves (a route under `/_svc/` fails here).
 */
export function describeApp(
  modules: Readonly<Record<string, Record<string, unknown>>>,
  input: DescribeInput,
  data: DataModules = {},
): AppDescription {
  const functions = registryFromModules(modules);
  const manifest = manifestOf(functions);
  const router = entryPoint(modules, "http") as HttpRouter | undefined;
  const crons = entryPoint(modules, "crons") as CronJobs | undefined;
  const queues = entryPoint(modules, "queues") as QueueConsumers | undefined;
  const http = router === undefined ? null : httpManifestOf(router);
  return {
    manifest,
    openapi: buildOpenApi(manifest, input.openapi, http ?? []),
    http,
    crons: crons === undefined ? null : cronManifestOf(crons, functions),
    queues: queues === undefined ? null : queueManifestOf(queues, functions),
    ...describeData(data),
  };
}
