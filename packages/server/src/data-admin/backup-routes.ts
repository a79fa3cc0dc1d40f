import { BACKUP_CONTENT_TYPE } from "../backups/format.ts";
import { bucketOf, listBackups, openBackup, shardBackupPrefix } from "../backups/r2.ts";
import { unwrap } from "../errors/outcome.ts";
import { SvcError } from "../errors/svc-error.ts";
import { validationFailed } from "../errors/validation-failed.ts";
import { checkShardKey } from "../model/shard-key.ts";
import type { RouteHandler } from "../routes/implement.ts";
import type { dataAdminRoutes } from "./contract.ts";
import type { BackupsOptions, DataAuditRecord, DataContext } from "./options.ts";
import { pathKey, refuseUnconfirmed, requireKnownShard, shardOf } from "./shard-stub.ts";
import { backupFileName } from "./transfer-routes.ts";

type Routes = typeof dataAdminRoutes.routes;
type Handler<Name extends keyof Routes> = RouteHandler<Routes[Name], DataContext, DataAuditRecord>;

const DEFAULT_BACKUP_PAGE = 100;

/** The backups option; the routes that need it exist only when it is set (capability `backups`). */
function backupsOf(ctx: DataContext): Required<BackupsOptions> {
  const { backups } = ctx.deps;
  if (backups === undefined)
    throw new Error("svc: a backup route ran without createWorker({ backups })");
  return backups;
}

/** `GET backups?shard=&cursor=&limit=`: backups in the bucket, of one shard or of all. */
export const listBackupsHandler: Handler<"listBackups"> = async ({ query, ctx }) =>
  listBackups(bucketOf(ctx.env, backupsOf(ctx).bucket), {
    shardKey: query.shard === undefined ? null : checkShardKey(query.shard),
    cursor: query.cursor ?? null,
    limit: query.limit ?? DEFAULT_BACKUP_PAGE,
  });

/** `GET backups/schedule`: when the bucket backs every shard up, how many backups stay, with file bytes or not. */
export const backupScheduleHandler: Handler<"backupSchedule"> = async ({ ctx }) => {
  const { bucket, schedule, keep, files } = backupsOf(ctx);
  return { bucket, schedule, keep, files };
};

/**
 * `GET shards/:key/backup?id=`: one of the shard's backups as a file. An id
 * of another shard's backup is a 404 like an unknown one, so the audited
 * shard is always the one whose data left.
 */
export const downloadBackupHandler: Handler<"downloadBackup"> = async ({
  params,
  query,
  ctx,
  audit,
}) => {
  const key = pathKey(params);
  if (!query.id.startsWith(shardBackupPrefix(key)))
    throw new SvcError(
      "NOT_FOUND",
      `No backup ${JSON.stringify(query.id)} of shard ${JSON.stringify(key)}.`,
    );
  const body = await openBackup(bucketOf(ctx.env, backupsOf(ctx).bucket), query.id);
  audit.detail = `backup ${query.id} downloaded`;
  const takenAt = query.id.slice(shardBackupPrefix(key).length).replace(/\.ndjson$/, "");
  return new Response(body, {
    headers: {
      "content-type": BACKUP_CONTENT_TYPE,
      "content-disposition": `attachment; filename="${backupFileName(`${key}-${takenAt}`)}"`,
      "cache-control": "no-store",
    },
  });
};

/** `POST shards/:key/backup?files=`: backs the shard up to the bucket now (file bytes too with `files`). */
export const backupShardHandler: Handler<"backupShard"> = async ({ params, query, ctx, audit }) => {
  const key = pathKey(params);
  await requireKnownShard(ctx, key);
  const { bucket, keep } = backupsOf(ctx);
  const files = query.files === true;
  const info = unwrap(await shardOf(ctx, key).backupTo({ bucket, keep, files }));
  audit.detail = `${info.documents} documents backed up to ${info.id}`;
  return info;
};

/**
 * `POST shards/:key/restore { backup }`: restores a backup from the bucket
 * (any shard's: restoring under another key clones it) into this shard,
 * which must be empty.
 */
export const restoreShardHandler: Handler<"restoreShard"> = async ({
  params,
  body,
  ctx,
  audit,
}) => {
  const key = pathKey(params);
  const result = unwrap(await shardOf(ctx, key).restoreFrom(backupsOf(ctx).bucket, body.backup));
  audit.detail = `${result.documents} documents restored from ${body.backup}`;
  return { key, ...result };
};

/**
 * `POST shards/:key/rewind { at, confirm }`: point-in-time restore of the
 * shard in place (Durable Objects bookmarks; Cloudflare keeps 30 days).
 * `501` where the runtime has no bookmarks (local workerd).
 */
export const rewindShardHandler: Handler<"rewindShard"> = async ({ params, body, ctx, audit }) => {
  const key = pathKey(params);
  const at = Date.parse(body.at);
  if (Number.isNaN(at) || !/^\d{4}-\d{2}-\d{2}T/.test(body.at)) {
    throw validationFailed(
      [{ path: "body.at", message: "must be an ISO-8601 time, e.g. 2026-11-30T10:00:00Z" }],
      "Invalid request: ",
    );
  }
  refuseUnconfirmed("body.confirm", body.confirm, key, "replaced");
  await requireKnownShard(ctx, key);
  const { bookmark } = unwrap(await shardOf(ctx, key).rewind(at));
  // The shard restarts on the restored data; ask its new instance for a fresh registry report
  // (best effort: otherwise the row catches up at the shard's next write).
  await shardOf(ctx, key)
    .requestReport()
    .catch(() => undefined);
  audit.detail = `rewound to ${new Date(at).toISOString()}`;
  return { key, at: new Date(at).toISOString(), bookmark };
};
