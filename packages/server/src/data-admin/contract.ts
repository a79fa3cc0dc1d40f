// The modules themselves, not the contract's index: the index re-exports this group.
import { integer, text } from "../routes/contract/fields.ts";
import { named } from "../routes/contract/named.ts";
import { fileAnswer, rawBody, route, routeGroup } from "../routes/contract/route.ts";
import { v } from "../values/index.ts";
import type { Infer } from "../values/validator.ts";
import {
  migrationRunAnswer,
  migrationRunQuery,
  migrationStatusAnswer,
  migrationStatusQuery,
} from "./migration-shapes.ts";

/** Largest `limit` of `GET shards`. */
export const MAX_SHARD_PAGE = 200;
/** Largest `limit` of `GET backups`. */
export const MAX_BACKUP_PAGE = 1_000;
/** The capability of the backup routes: on when `createWorker({ backups })` is set. */
export const BACKUPS_CAPABILITY = "backups";

/** One shard as the registry knows it. */
export const shardEntry = named(
  "Shard",
  v.object({
    key: v.string(),
    createdAt: v.string(),
    lastWriteAt: v.union(v.string(), v.null()),
    reportedAt: v.string(),
    documents: v.number(),
    tables: v.array(v.object({ name: v.string(), documents: v.number() })),
    sizeBytes: v.number(),
    schemaVersion: v.union(v.string(), v.null()),
  }),
);

/**
 * One row of `GET /_svc/admin/data/shards` as clients read it: derived from
 * the declaration, so the dashboard and the CLI never restate it.
 *
 * @example const shards: ShardListEntry[] = (await answer.json()).shards;
 */
export type ShardListEntry = Infer<typeof shardEntry>;

/** One backup in the R2 bucket. */
export const backupInfo = named(
  "Backup",
  v.object({
    id: v.string(),
    shardKey: v.string(),
    createdAt: v.string(),
    sizeBytes: v.number(),
    documents: v.number(),
    schemaVersion: v.union(v.string(), v.null()),
    svcVersion: v.string(),
  }),
);

/**
 * One backup as `GET backups` lists it and `POST shards/:key/backup` answers it.
 *
 * @example const newest: BackupInfo | undefined = page.backups.at(-1);
 */
export type BackupInfo = Infer<typeof backupInfo>;

/** `createWorker({ backups })` as the bucket runs it: where backups go, when, how many stay. */
export const backupSchedule = named(
  "BackupSchedule",
  v.object({
    /** The R2 bucket binding backups go to. */
    bucket: v.string(),
    /** The cron expression (UTC) that backs up every shard. */
    schedule: v.string(),
    /** Backups kept per shard; older ones are deleted after each new one. */
    keep: v.number(),
    /** Whether each scheduled backup carries the bytes of the shard's files, not only their metadata. */
    files: v.boolean(),
  }),
);

/** What an import or a restore put into a shard. */
export const restoreResult = named(
  "RestoreResult",
  v.object({ key: v.string(), documents: v.number(), tables: v.record(v.number()) }),
);

/**
 * What an import or a restore put into a shard, as the CLI prints it.
 *
 * @example const { documents }: RestoreResult = await admin.restoreShard({ params: { key }, body: { backup } });
 */
export type RestoreResult = Infer<typeof restoreResult>;

const backupFile = {
  "application/x-ndjson": v.string(),
};

/**
 * The data admin routes under `/_svc/admin/data/` (docs/admin-api.md,
 * "Data"), declared once each: the worker serves them, and the admin
 * OpenAPI document, the docs table and a typed client derive from them.
 * `:key` is a URI-encoded shard key.
 */
export const dataAdminRoutes = routeGroup({
  prefix: "/_svc/admin/data/",
  tag: "data",
  routes: {
    listShards: route({
      method: "GET",
      path: "shards",
      summary: "List the shards the registry knows, in key order",
      description:
        "Every partition of the registry is read once per page and merged; `search` keeps keys containing it (ASCII case-insensitive).",
      query: v.object({
        search: v.optional(text(256)),
        cursor: v.optional(v.string()),
        limit: v.optional(integer(1, MAX_SHARD_PAGE)),
      }),
      answer: v.object({ shards: v.array(shardEntry), nextCursor: v.union(v.string(), v.null()) }),
      errors: ["BAD_REQUEST"],
    }),
    getShard: route({
      method: "GET",
      path: "shards/:key",
      summary: "One shard's registry row",
      answer: shardEntry,
      errors: ["BAD_REQUEST", "NOT_FOUND"],
    }),
    deleteShard: route({
      method: "DELETE",
      path: "shards/:key",
      summary: "Delete every document of a shard (the key typed again as confirm)",
      query: v.object({ confirm: v.string() }),
      answer: v.object({ key: v.string(), deleted: v.literal(true), documents: v.number() }),
      errors: ["BAD_REQUEST", "NOT_FOUND"],
      audit: "shard.delete",
    }),
    exportShard: route({
      method: "GET",
      path: "shards/:key/export",
      summary: "Export a shard as a backup stream (writes wait while it streams)",
      answer: fileAnswer(backupFile, "NDJSON: a header line, then one line per document"),
      errors: ["BAD_REQUEST", "NOT_FOUND"],
      audit: "shard.export",
    }),
    importShard: route({
      method: "POST",
      path: "shards/:key/import",
      summary: "Import a backup into an empty shard, all or nothing",
      body: rawBody(backupFile, "A backup as `GET shards/:key/export` writes it"),
      answer: restoreResult,
      errors: ["BAD_REQUEST", "CONFLICT"],
      audit: "shard.import",
    }),
    listBackups: route({
      method: "GET",
      path: "backups",
      summary: "List the backups in the R2 bucket, of one shard or of all",
      query: v.object({
        shard: v.optional(v.string()),
        cursor: v.optional(v.string()),
        limit: v.optional(integer(1, MAX_BACKUP_PAGE)),
      }),
      answer: v.object({ backups: v.array(backupInfo), nextCursor: v.union(v.string(), v.null()) }),
      errors: ["BAD_REQUEST"],
      requires: BACKUPS_CAPABILITY,
    }),
    backupSchedule: route({
      method: "GET",
      path: "backups/schedule",
      summary:
        "The scheduled backups' settings: bucket binding, cron schedule, backups kept per shard",
      answer: backupSchedule,
      requires: BACKUPS_CAPABILITY,
    }),
    downloadBackup: route({
      method: "GET",
      path: "shards/:key/backup",
      summary: "Download one of the shard's backups from the R2 bucket (`?id=` from `GET backups`)",
      query: v.object({ id: text(1024) }),
      answer: fileAnswer(backupFile, "NDJSON: the backup as it was taken"),
      errors: ["BAD_REQUEST", "NOT_FOUND"],
      audit: "shard.export",
      requires: BACKUPS_CAPABILITY,
    }),
    backupShard: route({
      method: "POST",
      path: "shards/:key/backup",
      summary: "Back a shard up to the R2 bucket now",
      description:
        "Documents and file metadata always; `?files=true` adds the files' bytes (docs/storage.md).",
      query: v.object({
        files: v.optional(v.boolean().describe("Also the bytes of the shard's stored files.")),
      }),
      answer: backupInfo,
      errors: ["BAD_REQUEST", "NOT_FOUND"],
      audit: "shard.backup",
      requires: BACKUPS_CAPABILITY,
    }),
    restoreShard: route({
      method: "POST",
      path: "shards/:key/restore",
      summary: "Restore a backup from the R2 bucket into an empty shard (another key: a clone)",
      body: v.object({ backup: v.string() }),
      answer: restoreResult,
      errors: ["BAD_REQUEST", "NOT_FOUND", "CONFLICT"],
      audit: "shard.restore",
      requires: BACKUPS_CAPABILITY,
    }),
    rewindShard: route({
      method: "POST",
      path: "shards/:key/rewind",
      summary: "Point-in-time restore of a shard in place (the key typed again as confirm)",
      description:
        "Durable Objects SQLite bookmarks: Cloudflare keeps 30 days. `501 NOT_IMPLEMENTED` where the runtime has none (local workerd).",
      body: v.object({ at: v.string(), confirm: v.string() }),
      answer: v.object({ key: v.string(), at: v.string(), bookmark: v.string() }),
      errors: ["BAD_REQUEST", "NOT_FOUND", "NOT_IMPLEMENTED"],
      audit: "shard.rewind",
    }),
    listMigrations: route({
      method: "GET",
      path: "migrations",
      summary: "Each migration's progress, summed over the registry's shards",
      description:
        "Covers `limit` shards in key order (8 asked at a time); follow `nextCursor` for the rest.",
      query: migrationStatusQuery,
      answer: migrationStatusAnswer,
      errors: ["BAD_REQUEST"],
    }),
    runMigration: route({
      method: "POST",
      path: "migrations/:name/run",
      summary: "Start a migration in every shard, or dry-run it (`dryRun=true`)",
      description:
        "Each shard's alarm runs the migration in batches; `GET migrations` shows the progress. A dry run counts per shard what would change, with before/after samples, and writes nothing. Covers `limit` shards; follow `nextCursor`.",
      query: migrationRunQuery,
      answer: migrationRunAnswer,
      errors: ["BAD_REQUEST", "NOT_FOUND"],
      audit: "migration.run",
    }),
  },
});
