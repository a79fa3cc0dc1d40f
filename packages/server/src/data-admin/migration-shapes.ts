import { integer, oneOf, text } from "../routes/contract/fields.ts";
import { named } from "../routes/contract/named.ts";
import { v } from "../values/index.ts";

/** Most shards one `migrations` request covers; the answer's `nextCursor` goes on. */
export const MAX_MIGRATION_SHARDS = 1_000;
/** Most before/after samples a dry run answers per shard. */
export const MAX_DRY_RUN_SAMPLES = 20;

const failedDocument = v.object({ id: v.string(), message: v.string() });
const shardError = v.object({ code: v.string(), message: v.string() });
const counts = {
  /** Documents the runner looked at. */
  scanned: v.number(),
  changed: v.number(),
  deleted: v.number(),
  unchanged: v.number(),
  writtenByApp: v.number(),
  failed: v.number(),
};

/** The states of a migration in one shard (see docs/data-lifecycle.md). */
export const migrationState = oneOf(["registered", "running", "stopped", "done"]);

/** One migration in one shard: where it stands and what it did. */
export const shardMigration = named(
  "ShardMigration",
  v.object({
    name: v.string(),
    table: v.string(),
    state: migrationState,
    ...counts,
    /** The document that stopped the run (`onError: "stop"`), or `null`. */
    error: v.union(failedDocument, v.null()),
    /** The first documents that failed (at most 10). */
    failedDocuments: v.array(failedDocument),
    startedAt: v.union(v.string(), v.null()),
    finishedAt: v.union(v.string(), v.null()),
    /** `false` for a migration the shard ran but the app no longer declares. */
    declared: v.boolean(),
  }),
);

/** One migration over the shards a `GET migrations` covered. */
export const migrationSummary = named(
  "MigrationSummary",
  v.object({
    name: v.string(),
    table: v.string(),
    /** Shards by the migration's state there; `withFailures` counts shards that skipped or stopped on a document. */
    shards: v.object({
      registered: v.number(),
      running: v.number(),
      stopped: v.number(),
      done: v.number(),
      withFailures: v.number(),
    }),
    documents: v.object(counts),
    /** The first failed documents (at most 20; a document that stopped a run first), with their shard. */
    failedDocuments: v.array(v.object({ shard: v.string(), id: v.string(), message: v.string() })),
  }),
);

/** What a dry run found in one shard; nothing was written. */
export const dryRunReport = named(
  "MigrationDryRun",
  v.object({
    /** Documents still to migrate. */
    scanned: v.number(),
    wouldChange: v.number(),
    wouldDelete: v.number(),
    unchanged: v.number(),
    writtenByApp: v.number(),
    failed: v.number(),
    errors: v.array(failedDocument),
    /** Documents a run would change: before and after (`null`: deleted), as JSON. */
    samples: v.array(v.object({ id: v.string(), before: v.any(), after: v.any() })),
  }),
);

/** `GET migrations`' query: which shards the answer covers. */
export const migrationStatusQuery = v.object({
  /** Only shards whose key contains this (ASCII case-insensitive), as `GET shards?search=`. */
  search: v.optional(text(256)),
  /** Also answer each covered shard's own record of this migration (`byShard`): a run's progress per shard. */
  name: v.optional(text(200)),
  cursor: v.optional(v.string()),
  limit: v.optional(integer(1, MAX_MIGRATION_SHARDS)),
});

/** `GET migrations`' answer: each migration summed over the shards covered. */
export const migrationStatusAnswer = v.object({
  migrations: v.array(migrationSummary),
  /** Shards this answer covers. */
  shards: v.number(),
  /** Shards that could not answer, with their error. */
  unreachable: v.array(v.object({ key: v.string(), error: shardError })),
  /** With `name`: each covered shard that has that migration, with its record there (else empty). */
  byShard: v.array(v.object({ key: v.string(), status: shardMigration })),
  nextCursor: v.union(v.string(), v.null()),
});

/** `POST migrations/:name/run`'s query: a dry run or not, and which shards. */
export const migrationRunQuery = v.object({
  dryRun: v.optional(v.boolean()),
  samples: v.optional(integer(0, MAX_DRY_RUN_SAMPLES)),
  /** Only shards whose key contains this: a canary run before every shard. */
  search: v.optional(text(256)),
  cursor: v.optional(v.string()),
  limit: v.optional(integer(1, MAX_MIGRATION_SHARDS)),
});

/** `POST migrations/:name/run`'s answer: each shard's status (run) or report (dry run). */
export const migrationRunAnswer = v.object({
  name: v.string(),
  dryRun: v.boolean(),
  /** Each shard covered: its error, or (run) the migration's status there, or (dry run) its report. */
  shards: v.array(
    v.object({
      key: v.string(),
      error: v.union(shardError, v.null()),
      status: v.union(shardMigration, v.null()),
      report: v.union(dryRunReport, v.null()),
    }),
  ),
  nextCursor: v.union(v.string(), v.null()),
});
