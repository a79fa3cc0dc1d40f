import type { dataAdminRoutes } from "@svc/server/data-admin/studio-contract";
import {
  createRouteClient,
  type RouteAnswer,
  type RouteTransport,
} from "@svc/server/routes/contract";
import { useMemo } from "preact/hooks";
import { useApp } from "../app-context.ts";
import { DATA_ADMIN_MANIFEST } from "./data-routes.generated.ts";

type Routes = (typeof dataAdminRoutes)["routes"];

/** One migration summed over the shards a `GET migrations` covered. */
export type MigrationSummary = RouteAnswer<Routes["listMigrations"]>["migrations"][number];
/** `GET migrations`' whole answer (which shards it covered, which could not answer). */
export type MigrationStatus = RouteAnswer<Routes["listMigrations"]>;
/** `POST migrations/:name/run`'s answer: each shard's status (run) or report (dry run). */
export type MigrationRun = RouteAnswer<Routes["runMigration"]>;
/** One backup in the R2 bucket. */
export type Backup = RouteAnswer<Routes["listBackups"]>["backups"][number];
/** The scheduled backups' settings. */
export type BackupSchedule = RouteAnswer<Routes["backupSchedule"]>;

/**
 * The registry, backup and migration routes of `/_svc/admin/data/` as one
 * typed client, derived from their declarations (`dataAdminRoutes`)
 * through the generated manifest: the Migrations and Backups screens call
 * `listMigrations`, `runMigration`, `listBackups`, `backupShard`, … with
 * `{ params, query, body, signal }` as declared.
 *
 * @example
 * ```ts
 * const { migrations } = await dataAdminApi(transport).listMigrations({ query: {} });
 * ```
 */
export function dataAdminApi(transport: RouteTransport) {
  return createRouteClient(DATA_ADMIN_MANIFEST, transport);
}

/** {@link dataAdminApi}'s shape. */
export type DataAdminApi = ReturnType<typeof dataAdminApi>;

/**
 * {@link dataAdminApi} for a screen, built from the signed-in transport, so
 * its manifest loads with the screens that use it.
 *
 * @example const api = useDataAdminApi();
 */
export function useDataAdminApi(): DataAdminApi {
  const { transport } = useApp();
  return useMemo(() => dataAdminApi(transport), [transport]);
}
