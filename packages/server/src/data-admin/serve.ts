import { INTERNAL_MESSAGE } from "../errors/normalize.ts";
import { SvcError } from "../errors/svc-error.ts";
import { implement } from "../routes/implement.ts";
import { type RouteServer, serveRoutes } from "../routes/serve.ts";
import type { DataAuditAction } from "./audit.ts";
import {
  backupShardHandler,
  listBackupsHandler,
  restoreShardHandler,
  rewindShardHandler,
} from "./backup-routes.ts";
import { BACKUPS_CAPABILITY, dataAdminRoutes } from "./contract.ts";
import type { DataAuditRecord, DataContext } from "./options.ts";
import { deleteShardHandler, getShardHandler, listShardsHandler } from "./shard-routes.ts";
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
    backupShard: backupShardHandler,
    restoreShard: restoreShardHandler,
    rewindShard: rewindShardHandler,
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
      targetId: params.key ?? "",
      detail: null,
      deps: ctx.deps,
    }),
    async close(record, error) {
      const safe = error instanceof SvcError && error.code !== "INTERNAL";
      await record.deps.audit({
        operator: record.operator,
        action: record.action as DataAuditAction,
        targetType: "shard",
        targetId: record.targetId,
        outcome: error === undefined ? "ok" : "error",
        detail: error === undefined ? record.detail : safe ? error.message : INTERNAL_MESSAGE,
      });
    },
  },
});
