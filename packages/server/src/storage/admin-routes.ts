import { unwrap } from "../errors/outcome.ts";
import { SvcError } from "../errors/svc-error.ts";
import { auditOutcome } from "../model/audit-outcome.ts";
import type { DataAuditAction, DataAuditSink } from "../model/data-audit.ts";
import { endpointStub } from "../model/endpoint-stub.ts";
import { checkShardKey } from "../model/shard-key.ts";
import { findShard } from "../registry/reader.ts";
import { implement } from "../routes/implement.ts";
import { type RouteServer, serveRoutes } from "../routes/serve.ts";
import { isIdOf, newId } from "../values/ids.ts";
import { FILES_PAGE, filesAdminRoutes } from "./admin-contract.ts";
import type { StorageEndpoint } from "./endpoint.ts";
import { MAX_UPLOAD_BYTES, uploadType } from "./limits.ts";
import { type ResolvedStorageOptions, storageBucket } from "./options.ts";
import { objectKey } from "./paths.ts";
import { putStream, putUnsized, type StoredBytes } from "./put-stream.ts";
import { STORAGE_ID_TABLE } from "./references.ts";
import { recordedOrRemoved } from "./upload-route.ts";

/** What the files admin routes need from `createWorker`. */
export interface FilesAdminContext {
  env: unknown;
  namespace: DurableObjectNamespace;
  options: ResolvedStorageOptions;
  /** The admin token's name: who uploads or deletes, in the audit trail. */
  operator: string;
  /** Where uploads and deletes are recorded: `createWorker`'s audit sink. */
  audit: DataAuditSink;
}

/** An open audit record of one upload or delete: what the handler did goes in `detail`. */
interface FileAudit {
  operator: string;
  action: DataAuditAction;
  shardKey: string;
  detail: string | null;
  sink: DataAuditSink;
}

const noFile = () => new SvcError("NOT_FOUND", "No such file.");

/** The shard of a route's `:key`, refused (404) unless the registry knows it: asking never creates one. */
async function shardOf(ctx: FilesAdminContext, key: string): Promise<StorageEndpoint> {
  const shardKey = checkShardKey(key);
  if ((await findShard(ctx.namespace, shardKey)) === null)
    throw new SvcError("NOT_FOUND", "No such shard.");
  return endpointStub<StorageEndpoint>(ctx.namespace, shardKey);
}

function fileId(id: string): string {
  if (!isIdOf(STORAGE_ID_TABLE, id)) throw noFile();
  return id;
}

const filesAdminImplementation = implement(filesAdminRoutes)
  .context<FilesAdminContext, FileAudit>()
  .handlers({
    async listFiles({ params, query, ctx }) {
      const shard = await shardOf(ctx, params.key);
      return unwrap(await shard.storageList(query.cursor ?? null, query.limit ?? FILES_PAGE));
    },
    async downloadFile({ params, ctx }) {
      const id = fileId(params.id);
      const shardKey = checkShardKey(params.key);
      const bucket = storageBucket(ctx.env, ctx.options);
      const object = await bucket.get(objectKey(shardKey, id));
      if (object === null) throw noFile();
      return new Response(object.body, {
        headers: {
          "content-type": object.httpMetadata?.contentType ?? "application/octet-stream",
          "content-length": String(object.size),
          "content-disposition": `attachment; filename="${id}"`,
          "x-content-type-options": "nosniff",
          "content-security-policy": "default-src 'none'; sandbox",
        },
      });
    },
    async uploadFile({ params, request, ctx, audit }) {
      const shard = await shardOf(ctx, params.key);
      const bucket = storageBucket(ctx.env, ctx.options);
      const id = newId(STORAGE_ID_TABLE);
      const key = objectKey(checkShardKey(params.key), id);
      const contentType = uploadType(request.headers.get("content-type"));
      const header = request.headers.get("content-length");
      const body = request.body ?? new Blob([]).stream();
      unwrap(await shard.storageReserve(id));
      let stored: StoredBytes | null;
      try {
        stored =
          header !== null && /^\d{1,15}$/.test(header)
            ? await putStream(bucket, key, body, Number(header), contentType)
            : await putUnsized(bucket, key, body, MAX_UPLOAD_BYTES, contentType);
      } catch (error) {
        await shard.storageAbort(id);
        throw error;
      }
      // A new id's key has no bytes: R2 keeps an object there only if the id was reused.
      if (stored === null) throw new Error(`svc: R2 already holds bytes under the new ${key}`);
      // Refused (the file was deleted while its bytes streamed): no row will name them.
      await recordedOrRemoved(bucket, key, await shard.storageComplete(id, stored, contentType));
      audit.detail = `stored ${id} (${stored.size} bytes, ${contentType})`;
      return { storageId: id };
    },
    async deleteFile({ params, ctx, audit }) {
      const shard = await shardOf(ctx, params.key);
      unwrap(await shard.storageDelete(fileId(params.id)));
      audit.detail = `deleted ${params.id}`;
      return { deleted: true as const };
    },
  });

const server: RouteServer<FilesAdminContext> = serveRoutes(filesAdminImplementation, {
  audit: {
    open: ({ action, params, ctx }) => ({
      operator: ctx.operator,
      action: action as DataAuditAction,
      shardKey: params.key ?? "",
      detail: null,
      sink: ctx.audit,
    }),
    async close(record, error) {
      await record.sink({
        operator: record.operator,
        action: record.action,
        targetType: "shard",
        targetId: record.shardKey,
        ...auditOutcome(record.detail, error),
      });
    },
  },
});

/**
 * The files admin API (`/_svc/admin/files/*`, docs/storage.md), behind the
 * admin gate that already ran: the declared routes of {@link filesAdminRoutes},
 * uploads and deletes recorded (`file.upload`, `file.delete`, refusals too)
 * with the operator through `ctx.audit`.
 *
 * @example return handleFilesAdmin(request, url, { env, namespace, options, operator, audit });
 */
export function handleFilesAdmin(
  request: Request,
  url: URL,
  ctx: FilesAdminContext,
): Promise<Response> {
  const path = url.pathname.slice(filesAdminRoutes.prefix.length);
  return server.handle(request, { path, ctx });
}
