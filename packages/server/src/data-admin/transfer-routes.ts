import { BACKUP_CONTENT_TYPE } from "../backups/format.ts";
import { type NumberedLine, ndjsonLines } from "../backups/lines.ts";
import { unwrap } from "../errors/outcome.ts";
import { SvcError } from "../errors/svc-error.ts";
import type { RouteHandler } from "../routes/implement.ts";
import type { dataAdminRoutes } from "./contract.ts";
import type { DataAuditRecord, DataContext } from "./options.ts";
import { pathKey, requireKnownShard, shardOf } from "./shard-stub.ts";

type Routes = typeof dataAdminRoutes.routes;
type Handler<Name extends keyof Routes> = RouteHandler<Routes[Name], DataContext, DataAuditRecord>;

/** Lines per step of an import (one RPC into the shard per step). */
const IMPORT_BATCH_LINES = 1_000;
/** Characters per step of an import, at most (plus one line). */
const IMPORT_BATCH_CHARS = 1024 * 1024;

/**
 * A backup file's name for a shard key (or key and time): anything but
 * letters, digits, `-`, `_` and `.` becomes `_`, so it is safe in a header.
 *
 * @example backupFileName("room/1") // "room_1.ndjson"
 */
export function backupFileName(key: string): string {
  return `${key.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 100)}.ndjson`;
}

/**
 * `GET shards/:key/export`: the shard as a backup stream (NDJSON,
 * docs/data-lifecycle.md). The shard's writes wait while it streams, so the
 * file is one consistent snapshot.
 */
export const exportShardHandler: Handler<"exportShard"> = async ({ params, ctx, audit }) => {
  const key = pathKey(params);
  await requireKnownShard(ctx, key);
  const body = unwrap(await shardOf(ctx, key).exportData());
  audit.detail = "export started";
  return new Response(body, {
    headers: {
      "content-type": BACKUP_CONTENT_TYPE,
      "content-disposition": `attachment; filename="${backupFileName(key)}"`,
      "cache-control": "no-store",
    },
  });
};

/**
 * `POST shards/:key/import` with a backup as the body: restores it into the
 * shard, which must be empty (`409` otherwise). All or nothing: a bad line
 * answers `400` naming it and imports nothing. The body streams through in
 * steps of at most 1,000 lines, so its size is bounded by the shard's
 * storage, not by memory.
 */
export const importShardHandler: Handler<"importShard"> = async ({
  params,
  request,
  ctx,
  audit,
}) => {
  const key = pathKey(params);
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (type !== BACKUP_CONTENT_TYPE || request.body === null) {
    throw new SvcError(
      "BAD_REQUEST",
      `Send the backup as the request body with content-type ${BACKUP_CONTENT_TYPE}.`,
    );
  }
  const shard = shardOf(ctx, key);
  const id = unwrap(await shard.importBegin());
  try {
    let batch: NumberedLine[] = [];
    let chars = 0;
    for await (const line of ndjsonLines(request.body)) {
      batch.push(line);
      chars += line.text.length;
      if (batch.length >= IMPORT_BATCH_LINES || chars >= IMPORT_BATCH_CHARS) {
        unwrap(await shard.importLines(id, batch));
        batch = [];
        chars = 0;
      }
    }
    unwrap(await shard.importLines(id, batch));
    const result = unwrap(await shard.importCommit(id));
    audit.detail = `${result.documents} documents imported`;
    return { key, ...result };
  } catch (error) {
    await shard.importAbort(id).catch(() => undefined);
    throw error;
  }
};
