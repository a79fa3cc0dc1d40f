import { INTERNAL_MESSAGE } from "../errors/normalize.ts";
import { SvcError } from "../errors/svc-error.ts";
import type { DataAuditAction } from "../model/data-audit.ts";
import { implement } from "../routes/implement.ts";
import { PathRouter } from "../routes/path-router.ts";
import { type RouteServer, serveRoutes } from "../routes/serve.ts";
import {
  backupScheduleHandler,
  backupShardHandler,
  downloadBackupHandler,
  listBackupsHandler,
  restoreShardHandler,
  rewindShardHandler,
} from "./backup-routes.ts";
import { BACKUPS_CAPABILITY, dataAdminRoutes } from "./contract.ts";
import { listMigrationsHandler, runMigrationHandler } from "./migration-routes.ts";
import type { DataAdminDeps, DataAuditRecord, DataContext } from "./options.ts";
import { deleteShardHandler, getShardHandler, listShardsHandler } from "./shard-routes.ts";
import { serveStudio } from "./studio/serve.ts";
import { exportShardHandler, importShardHandler } from "./transfer-routes.ts";

/** Where the data routes are mounted. */
export const DATA_ADMIN_PREFIX = dataAdminRoutes.prefix;

/** The data routes with their handlers. */
export const dataAdminImplementation = implement(dataAdminRoutes)
  .context<DataContext, DataAuditRecord>()
  .handlers({
    listShards: listShardsHandler,
    getShard: getShardHandler,
    deleteShard: deleteShardHandler,
    exportShard: exportShardHandler,
    importShard: importShardHandler,
    listBackups: listBackupsHandler,
    backupSchedule: backupScheduleHandler,
    downloadBackup: downloadBackupHandler,
    backupShard: backupShardHandler,
    restoreShard: restoreShardHandler,
    rewindShard: rewindShardHandler,
    listMigrations: listMigrationsHandler,
    runMigration: runMigrationHandler,
  });

/**
 * The server of `/_svc/admin/data/` (the admin gate has already admitted
 * the request): declared routes, backup routes only when backups are
 * configured, and every audited action — refusals included — recorded with
 * the operator through the context's audit sink.
 *
 * @example
 * ```ts
 * await dataAdminServer.handle(request, { path: "shards/room-1", ctx: { env, operator, deps } });
 * ```
 */
export const dataAdminServer: RouteServer<DataContext> = serveRoutes(dataAdminImplementation, {
  capability: (name, ctx) => name !== BACKUPS_CAPABILITY || ctx.deps.backups !== undefined,
  audit: {
    open: ({ action, params, ctx }) => ({
      operator: ctx.operator,
      action,
      targetId: params.key ?? params.name ?? "",
      detail: null,
      deps: ctx.deps,
    }),
    async close(record, error) {
      const safe = error instanceof SvcError && error.code !== "INTERNAL";
      await record.deps.audit({
        operator: record.operator,
        action: record.action as DataAuditAction,
        targetType: record.action.startsWith("migration.") ? "migration" : "shard",
        targetId: record.targetId,
        outcome: error === undefined ? "ok" : "error",
        detail: error === undefined ? record.detail : safe ? error.message : INTERNAL_MESSAGE,
      });
    },
  },
});

/** The paths of {@link dataAdminRoutes}, any method: what is not one of them is the studio's. */
const registryPaths = new PathRouter<true>();
for (const spec of Object.values(dataAdminRoutes.routes))
  registryPaths.add(spec.method, spec.path, true);

/**
 * Answers a request under `/_svc/admin/data/` (the admin gate has already
 * admitted it): the registry, backup and restore routes here, everything
 * else (tables, documents, runs: the data studio's routes, declared apart)
 * through the studio's server, whose unknown paths are the one 404.
 *
 * @example await handleDataAdmin(request, "shards/room-1", { env, operator: "alice", deps })
 */
export function handleDataAdmin(
  request: Request,
  path: string,
  ctx: { env: unknown; operator: string; deps: DataAdminDeps },
): Promise<Response> {
  if (registryPaths.match(request.method, path).kind !== "none") {
    return dataAdminServer.handle(request, { path, ctx });
  }
  return serveStudio(request, path, {
    namespace: ctx.deps.namespace(ctx.env),
    operator: ctx.operator,
    audit: ctx.deps.audit,
    studio: ctx.deps.studio,
  });
}
