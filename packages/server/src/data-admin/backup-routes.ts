import { bucketOf, listBackups } from "../backups/r2.ts";
import { SvcError } from "../errors/svc-error.ts";
import { v } from "../values/index.ts";
import { jsonResponse } from "../worker/responses.ts";
import { checkShardKey } from "../worker/shard-key.ts";
import { type BackupsOptions, dataRoute } from "./route.ts";
import { requireKnownShard } from "./shard-routes.ts";
import { shardOf, unwrap } from "./shard-stub.ts";

const DEFAULT_BACKUP_PAGE = 100;
const MAX_BACKUP_PAGE = 1_000;

function backupsOf(call: { deps: { backups: Required<BackupsOptions> | undefined } }) {
  // Routes that need backups are only reached when they are configured.
  return call.deps.backups!;
}

/** `GET backups?shard=&cursor=&limit=`: backups in the bucket, of one shard or of all. */
export const listBackupsRoute = dataRoute({
  method: "GET",
  path: "backups",
  query: v.object({
    shard: v.optional(v.string()),
    cursor: v.optional(v.string()),
    limit: v.optional(v.number()),
  }),
  needsBackups: true,
  answers: "{ backups: BackupInfo[], nextCursor: string | null }",
  async handle(call) {
    const { shard, cursor, limit = DEFAULT_BACKUP_PAGE } = call.query;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_BACKUP_PAGE) {
      const message = `must be an integer from 1 to ${MAX_BACKUP_PAGE}`;
      throw new SvcError("VALIDATION_FAILED", `query.limit: ${message}`, {
        issues: [{ path: "query.limit", message }],
      });
    }
    const bucket = bucketOf(call.env, backupsOf(call).bucket);
    return jsonResponse(
      await listBackups(bucket, {
        shardKey: shard === undefined ? null : checkShardKey(shard),
        cursor: cursor ?? null,
        limit,
      }),
    );
  },
});

/** `POST shards/:key/backup`: backs the shard up to the bucket now. */
export const backupShardRoute = dataRoute({
  method: "POST",
  path: "shards/:key/backup",
  audit: "shard.backup",
  needsBackups: true,
  answers: "BackupInfo",
  async handle(call) {
    await requireKnownShard(call);
    const { bucket, keep } = backupsOf(call);
    const info = unwrap(await shardOf(call).backupTo({ bucket, keep }));
    call.audit.detail = `${info.documents} documents backed up to ${info.id}`;
    return jsonResponse(info);
  },
});

/**
 * `POST shards/:key/restore { backup }`: restores a backup from the bucket
 * (any shard's: restoring under another key clones it) into this shard,
 * which must be empty.
 */
export const restoreShardRoute = dataRoute({
  method: "POST",
  path: "shards/:key/restore",
  body: v.object({ backup: v.string() }),
  audit: "shard.restore",
  needsBackups: true,
  answers: "{ key, documents, tables }",
  async handle(call) {
    const result = unwrap(
      await shardOf(call).restoreFrom(backupsOf(call).bucket, call.body.backup),
    );
    call.audit.detail = `${result.documents} documents restored from ${call.body.backup}`;
    return jsonResponse({ key: call.key, ...result });
  },
});

/**
 * `POST shards/:key/rewind { at, confirm }`: point-in-time restore of the
 * shard in place (Durable Objects bookmarks; Cloudflare keeps 30 days).
 * `501` where the runtime has no bookmarks (local workerd).
 */
export const rewindShardRoute = dataRoute({
  method: "POST",
  path: "shards/:key/rewind",
  body: v.object({ at: v.string(), confirm: v.string() }),
  audit: "shard.rewind",
  answers: "{ key, at, bookmark }",
  async handle(call) {
    const at = Date.parse(call.body.at);
    if (Number.isNaN(at) || !/^\d{4}-\d{2}-\d{2}T/.test(call.body.at)) {
      const message = "must be an ISO-8601 time, e.g. 2026-11-30T10:00:00Z";
      throw new SvcError("VALIDATION_FAILED", `body.at: ${message}`, {
        issues: [{ path: "body.at", message }],
      });
    }
    if (call.body.confirm !== call.key) {
      const message =
        "must repeat the shard key exactly, to confirm that its data is to be replaced";
      throw new SvcError("VALIDATION_FAILED", `body.confirm: ${message}`, {
        issues: [{ path: "body.confirm", message }],
      });
    }
    await requireKnownShard(call);
    const { bookmark } = unwrap(await shardOf(call).rewind(at));
    // The shard restarts on the restored data; ask its new instance for a fresh registry report
    // (best effort: otherwise the row catches up at the shard's next write).
    await shardOf(call)
      .requestReport()
      .catch(() => undefined);
    call.audit.detail = `rewound to ${new Date(at).toISOString()}`;
    return jsonResponse({ key: call.key, at: new Date(at).toISOString(), bookmark });
  },
});
