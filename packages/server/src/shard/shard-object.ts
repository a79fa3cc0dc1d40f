import { DurableObject } from "cloudflare:workers";
import type { NumberedLine } from "../backups/lines.ts";
import type { BackupInfo } from "../backups/r2.ts";
import { applySchema } from "../db/storage.ts";
import { type CallOrigin, checkOutput, Dispatcher } from "../dispatch/dispatch.ts";
import { armAlarm } from "../durable/alarms.ts";
import { writeMeta } from "../durable/meta.ts";
import { normalizeError } from "../errors/normalize.ts";
import type { Outcome } from "../errors/outcome.ts";
import { type SerializedError, SvcError, serializeError } from "../errors/svc-error.ts";
import { checkMigrations, type MigrationRegistry } from "../migrations/define.ts";
import type { DryRunReport } from "../migrations/dry-run.ts";
import { noteIsolateRequest } from "../migrations/isolate-requests.ts";
import { type MigrationStatus, ShardMigrations } from "../migrations/shard-migrations.ts";
import { endpointStub } from "../model/endpoint-stub.ts";
import type { Rejoin } from "../observability/await-scope.ts";
import type { ShardObservation } from "../observability/call-scope.ts";
import { observeRun, type RunAnswers } from "../observability/observe-run.ts";
import { ShardRunRecorder } from "../observability/shard-recorder.ts";
import type { AnyProcedure, FunctionRegistry } from "../procedures/procedure.ts";
import type {
  BackupRun,
  BackupTarget,
  RegistryEndpoint,
  RestoreResult,
  ShardDataEndpoint,
} from "../registry/data-endpoint.ts";
import type { DirectoryPage, ShardEntry } from "../registry/directory.ts";
import { ownNamespace } from "../registry/own-namespace.ts";
import { RegistryPartition } from "../registry/partition-object.ts";
import {
  isReservedObjectName,
  registryPartitionName,
  registryPartitionOf,
} from "../registry/partitions.ts";
import type { ShardReport } from "../registry/report.ts";
import { type RegistryPartitionEndpoint, RegistryReporter } from "../registry/reporter.ts";
import {
  cancelJobs,
  type JobFilter,
  type JobSelection,
  listJobs,
} from "../scheduler/admin-view.ts";
import { scheduledJobsBackup } from "../scheduler/backup.ts";
import type { ScheduledEndpoint } from "../scheduler/endpoint.ts";
import type { JobPage } from "../scheduler/job-view.ts";
import { type ScheduledInbox, ShardScheduler } from "../scheduler/runner.ts";
import { createScheduler, PendingBound } from "../scheduler/schedule.ts";
import { ensureScheduledTable, type JobRow, SCHEDULED_TABLE } from "../scheduler/table.ts";
import { scheduledJobQuery } from "../scheduler/watch.ts";
import { versionOf } from "../schema/applied-version.ts";
import type { SchemaDefinition } from "../schema/define.ts";
import type { FileAdminView } from "../storage/admin-contract.ts";
import { listFiles } from "../storage/admin-list.ts";
import { type StorageActionWriter, storageContext } from "../storage/context.ts";
import type { StorageEndpoint } from "../storage/endpoint.ts";
import { FileStore } from "../storage/file-store.ts";
import { resolveStorageOptions, type StorageOptions } from "../storage/options.ts";
import type { StoredBytes } from "../storage/put-stream.ts";
import { STORAGE_TABLE } from "../storage/table.ts";
import { shardAdmin } from "../studio/shard-admin.ts";
import type { ShardAdminRequest, ShardAdminResult } from "../studio/shard-protocol.ts";
import { SubscriptionHub } from "../subscriptions/hub.ts";
import { CLOSE } from "../subscriptions/protocol.ts";
import { stringifyJson } from "../values/json-codec.ts";
import { AppShardKey } from "./app-shard-key.ts";
import type { ShardCall, ShardEndpoint, ShardResult, ShardStreamResult } from "./call.ts";
import { creationClock } from "./creation-clock.ts";
import { Deadlines } from "./deadlines.ts";
import { runGated } from "./gated-call.ts";
import { SHARD_IN_ISOLATE, type ShardInIsolate } from "./in-isolate.ts";
import { IndexBuilds } from "./index-builds.ts";
import type { MigrationEndpoint } from "./migration-endpoint.ts";
import { outcome, ShardData } from "./shard-data.ts";
import { encodeStream } from "./stream-encoding.ts";

/** A failed run's RPC answer: the serialized error. */
type FailedAnswer = { ok: false; error: SerializedError; observed?: ShardObservation };

/**
 * A failed run's answer: the error serialized, with what was observed for the
 * worker's call record. Errors are normalized here, outside the call's scope,
 * so svc's own logging is not taken for the handler's.
 */
function failedAnswer(thrown: unknown, observation?: ShardObservation): FailedAnswer {
  const result: FailedAnswer = { ok: false, error: serializeError(normalizeError(thrown)) };
  if (observation !== undefined) result.observed = observation;
  return result;
}

/** A procedure call's answers (module functions, not closures made per call). */
const CALL_ANSWERS: RunAnswers<unknown, ShardResult> = {
  // Most calls observed nothing: then the answer is the one object made here.
  ok: (value, observation) =>
    observation === undefined ? { ok: true, value } : { ok: true, value, observed: observation },
  failed: failedAnswer,
};

/**
 * The answers of a call the worker answers as JSON: the value's text in svc's
 * encoding, made where the value is (see {@link ShardCall.answerAs}). A value
 * JSON cannot carry (a cycle) fails the call as a handler's throw would.
 */
const JSON_ANSWERS: RunAnswers<unknown, ShardResult> = {
  ok: (value, observation) => {
    let answer: ShardResult;
    try {
      answer = value === undefined ? { ok: true } : { ok: true, json: stringifyJson(value) };
    } catch (error) {
      return failedAnswer(error, observation);
    }
    if (observation !== undefined) answer.observed = observation;
    return answer;
  },
  failed: failedAnswer,
};

/** A stream's answers: its encoded body, or the error. */
const STREAM_ANSWERS: RunAnswers<ReadableStream<Uint8Array>, ShardStreamResult> = {
  ok: (body, observation) =>
    observation === undefined ? { ok: true, body } : { ok: true, body, observed: observation },
  failed: failedAnswer,
};

/**
 * The origin a call runs with: itself, and when it is recorded and may write
 * (a query never opens a transaction), how its transactions rejoin it.
 */
function originOf(
  call: ShardCall,
  procedure: AnyProcedure,
  rejoin: Rejoin | undefined,
): CallOrigin {
  return rejoin === undefined || procedure.kind === "query" ? call : { ...call, rejoin };
}

/** The shard registry's settings (docs/scaling.md). */
export interface ShardRegistryOptions {
  /** Least time between two registry reports of one shard. @default 10000 */
  intervalMs?: number;
  /**
   * The shard namespace's binding name. Not needed where the runtime gives
   * `ctx.exports` (workerd 2026+, Cloudflare): the shard finds its own class there.
   */
  binding?: string;
}

/** What a shard class is built from. */
export interface ShardOptions {
  schema: SchemaDefinition;
  functions: FunctionRegistry;
  /** The app's data migrations (`migrations` from `svc/_generated/functions.ts`). */
  migrations?: MigrationRegistry;
  /**
   * A new index on a table of up to this many documents is built at shard
   * start, before any call; on a bigger table it is built right after start,
   * from the shard's alarm, while calls are served (queries that name it give
   * the same results without it meanwhile).
   * @default 1000000
   */
  indexRowsAtStart?: number;
  /**
   * The shard registry: each shard reports its tables, document counts and
   * size to a partitioned directory, off the request path, at most once per
   * `intervalMs` after a write. `false` turns it off (then admin listings,
   * scheduled backups and migrations do not see the shards).
   * @default { intervalMs: 10000 }
   * @see ../../../../docs/scaling.md
   */
  registry?: false | ShardRegistryOptions;
  /**
   * File storage (`ctx.storage`): the R2 bucket binding and signing secret,
   * the same as given to `createWorker`, and how long an unreferenced upload
   * is kept.
   * @default { bucket: "SVC_FILES", secret: "SVC_STORAGE_SECRET", unreferencedMs: 86400000 }
   * @see ../../../../docs/storage.md
   */
  storage?: StorageOptions;
}

const DEFAULT_REGISTRY_INTERVAL_MS = 10_000;

/**
 * Builds the shard Durable Object class of an app. Export the result from the
 * worker's main module and bind it (with SQLite storage) in `wrangler.jsonc`.
 * Each shard key gets its own instance and its own database; a few objects
 * of the class under reserved names (no client can name them) hold the shard
 * registry.
 *
 * @example
 * ```ts
 * export const Shard = createShard({ schema, functions });
 * ```
 */
export function createShard(
  options: ShardOptions,
): new (
  ctx: DurableObjectState,
  env: unknown,
) => DurableObject &
  ShardEndpoint &
  ShardDataEndpoint &
  RegistryEndpoint &
  MigrationEndpoint &
  StorageEndpoint &
  ScheduledEndpoint {
  const { schema, functions } = options;
  const registry = options.registry === false ? undefined : (options.registry ?? {});
  const migrations = options.migrations ?? {};
  checkMigrations(migrations, new Set(Object.keys(schema.tables)));
  const { indexRowsAtStart } = options;
  const storageOptions = resolveStorageOptions(options.storage);
  if (
    indexRowsAtStart !== undefined &&
    (!Number.isInteger(indexRowsAtStart) || indexRowsAtStart < 0)
  )
    throw new Error("svc: createShard indexRowsAtStart must be a non-negative integer");
  return class SvcShard
    extends DurableObject
    implements
      ShardEndpoint,
      ShardDataEndpoint,
      RegistryEndpoint,
      MigrationEndpoint,
      StorageEndpoint,
      ScheduledEndpoint
  {
    readonly #dispatcher: Dispatcher;
    readonly #hub: SubscriptionHub;
    readonly #partition: RegistryPartition | undefined;
    readonly #reporter: RegistryReporter | undefined;
    readonly #data: ShardData;
    readonly #migrations: ShardMigrations;
    readonly #indexes: IndexBuilds;
    readonly #scheduler: ShardScheduler;
    readonly #admin: (request: ShardAdminRequest) => Promise<ShardAdminResult>;
    readonly #files: FileStore;
    readonly #appKey: AppShardKey;
    readonly #deadlines = new Deadlines();
    /** For code of this isolate only (`@svc/testing`'s `t.run`); see shard/in-isolate.ts. */
    readonly [SHARD_IN_ISOLATE]: ShardInIsolate = {
      write: ({ shardKey, path }, work) =>
        this.#dispatcher.write(
          {
            identity: null,
            service: null,
            transport: "admin",
            requestId: crypto.randomUUID(),
            shardKey,
          },
          path,
          work,
        ),
      storage: (uploader) =>
        storageContext(this.#files, {
          kind: "action",
          userId: uploader,
          bypassRls: true,
          reader: () => {
            throw new Error("svc: a privileged storage reads no documents");
          },
          access: undefined,
        }) as StorageActionWriter,
    };

    constructor(ctx: DurableObjectState, env: unknown) {
      super(ctx, env as never);
      const key = ctx.id.name ?? ctx.id.toString();
      const appKey = new AppShardKey(ctx.storage.sql, key);
      this.#appKey = appKey;
      const namespace = registry && ownNamespace(ctx, env, registry.binding);
      const now = creationClock();
      let version = "";
      this.#migrations = new ShardMigrations({
        storage: ctx.storage,
        schema,
        migrations,
        exclusive: (task) => this.#dispatcher.exclusive(task),
        shardKey: ctx.id.name,
        written: (tables) => this.#reporter?.noteWrite(tables),
      });
      this.#indexes = new IndexBuilds(ctx.storage, (task) => this.#dispatcher.exclusive(task));
      this.#files = new FileStore({
        sql: ctx.storage.sql,
        env,
        schema,
        shardKey: key,
        options: storageOptions,
        exclusive: (task) => this.#dispatcher.exclusive(task),
        changed: (tables) => this.#hub.commit(tables),
      });
      const arm = (at: number) => armAlarm(ctx.storage, at);
      const pending = new PendingBound();
      const jobsChanged = () => this.#hub.commit(new Set([SCHEDULED_TABLE]));
      const scheduling = {
        sql: ctx.storage.sql,
        pending,
        resolve: (ref: unknown) => this.#dispatcher.resolve(ref),
        arm,
        changed: jobsChanged,
      };
      this.#dispatcher = new Dispatcher({
        functions,
        schema,
        storage: ctx.storage,
        now,
        onCommit: (tables, mutationId) => {
          if (tables.has(STORAGE_TABLE)) this.#files.afterCommit();
          // A client's mutation that wrote nothing still commits (to be acknowledged).
          if (tables.size > 0) this.#reporter?.noteWrite(tables);
          this.#hub.commit(tables, mutationId);
        },
        view: this.#migrations,
        files: this.#files,
        scheduler: (origin, access) => createScheduler(scheduling, origin, access),
        systemQueries: [scheduledJobQuery(ctx.storage.sql)],
      });
      const recorder = new ShardRunRecorder(env, ctx);
      let siblings: DurableObjectNamespace | undefined;
      this.#scheduler = new ShardScheduler({
        storage: ctx.storage,
        // The app's key, not the object's name: they differ under @svc/testing's prefix.
        shardKey: () => appKey.value,
        dispatch: this.#dispatcher,
        recorder,
        shard: (shardKey) => {
          siblings ??= namespace || ownNamespace(ctx, env, registry ? registry.binding : undefined);
          return siblings?.getByName(shardKey) as ScheduledInbox | undefined;
        },
        arm,
        accepted: () => pending.note(),
        changed: jobsChanged,
      });
      this.#hub = new SubscriptionHub(ctx, this.#dispatcher, recorder);
      this.#admin = shardAdmin({ schema, storage: ctx.storage, dispatcher: this.#dispatcher });
      if (isReservedObjectName(ctx.id.name)) {
        this.#partition = new RegistryPartition(ctx.storage, (shardKey) =>
          endpointStub<ShardDataEndpoint>(namespace!, shardKey),
        );
      } else if (registry !== undefined && namespace === undefined) {
        console.error(
          "svc: the shard registry is off: this runtime gives the shard neither ctx.exports nor its name (set createShard({ registry: { binding } }) to the shard binding's name)",
        );
      } else if (registry !== undefined && namespace !== undefined) {
        const partition = registryPartitionName(registryPartitionOf(key));
        this.#reporter = new RegistryReporter({
          key,
          storage: ctx.storage,
          intervalMs: registry.intervalMs ?? DEFAULT_REGISTRY_INTERVAL_MS,
          partition: () => endpointStub<RegistryPartitionEndpoint>(namespace, partition),
        });
      }
      this.#data = new ShardData({
        key,
        ctx,
        env,
        schema,
        reporter: this.#reporter,
        files: {
          bucket: () => this.#files.boundBucket(),
          key: (id) => this.#files.key(id),
          sha256Of: (row) => this.#files.sha256Of(row),
        },
        systemTables: [scheduledJobsBackup],
        // Due jobs wait too, so a backup's count of pending jobs holds while it is read.
        exclusive: (task) => this.#scheduler.paused(() => this.#dispatcher.exclusive(task)),
        changed: (tables) => {
          this.#hub.commit(tables);
          // Restored jobs: the alarm is armed for the earliest.
          if (tables.has(SCHEDULED_TABLE)) {
            pending.forget();
            void this.#scheduler.rearm();
          }
        },
        closeSockets: () => {
          for (const ws of ctx.getWebSockets()) {
            ws.close(CLOSE.REAUTHENTICATE, "the shard's data was deleted; reconnect");
            this.#hub.close(ws);
          }
        },
        reinitialize: () => {
          applySchema(ctx.storage.sql, schema, options.indexRowsAtStart);
          this.#files.ensure();
          ensureScheduledTable(ctx.storage.sql);
          writeMeta(ctx.storage.sql, "schema_version", version);
          now.raise(this.#migrations.register());
        },
      });
      if (this.#partition !== undefined) return;
      ctx.blockConcurrencyWhile(async () => {
        const deferred = applySchema(ctx.storage.sql, schema, options.indexRowsAtStart);
        this.#files.ensure();
        // Made at start, outside any mutation, so scheduling never runs DDL (or loses it to a rollback).
        ensureScheduledTable(ctx.storage.sql);
        version = await versionOf(schema);
        // The schema this shard's tables and indexes are built for; the registry reports it.
        writeMeta(ctx.storage.sql, "schema_version", version);
        now.raise(this.#migrations.register());
        await this.#indexes.schedule(deferred);
        await this.#reporter?.start();
        await this.#scheduler.start();
      });
    }

    /** The subscription socket, forwarded by the worker's `/_svc/ws` route. */
    override async fetch(request: Request): Promise<Response> {
      noteIsolateRequest();
      return this.#hub.accept(request);
    }

    override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
      noteIsolateRequest();
      await this.#hub.message(ws, message);
    }

    override async webSocketClose(ws: WebSocket): Promise<void> {
      this.#hub.close(ws);
    }

    override async webSocketError(ws: WebSocket): Promise<void> {
      this.#hub.close(ws);
    }

    /** One alarm, several users: each checks its own due time (see durable/alarms.ts). */
    override async alarm(): Promise<void> {
      if (this.#partition !== undefined) return this.#partition.alarm();
      await this.#hub.alarm();
      await this.#reporter?.alarm();
      await this.#indexes.alarm();
      await this.#scheduler.alarm();
      // Last: it re-arms the alarm for its next batch if another user just set a later one.
      await this.#migrations.alarm();
    }

    // Migrations (docs/data-lifecycle.md): only the worker's admin routes call these.

    async migrationStatus(): Promise<MigrationStatus[]> {
      return this.#migrations.status();
    }

    runMigration(name: string, shardKey: string): Promise<Outcome<MigrationStatus[]>> {
      return outcome(() => this.#migrations.run(name, shardKey));
    }

    dryRunMigration(
      name: string,
      shardKey: string,
      samples: number,
    ): Promise<Outcome<DryRunReport>> {
      return outcome(() => this.#migrations.dryRun(name, shardKey, samples));
    }

    /**
     * A call's run as its answer, `UNAVAILABLE` once its `timeoutMs` passes
     * (the handler may still finish): the deadline's race and the answer's
     * shape are one `then` on the run.
     */
    #timed<T, R>(
      call: ShardCall,
      work: (rejoin: Rejoin | undefined) => Promise<T>,
      answers: RunAnswers<T, R>,
    ): Promise<R> {
      return observeRun(call.record, work, answers, (running, ok, failed) =>
        this.#deadlines.race(
          running,
          call.timeoutMs,
          () =>
            answers.failed(
              new SvcError(
                "UNAVAILABLE",
                `The procedure did not finish within ${call.timeoutMs} ms.`,
              ),
            ),
          ok,
          failed,
        ),
      );
    }

    // Calls count as requests to this isolate: a migration then lets them in between smaller batches.
    call(call: ShardCall): Promise<ShardResult> {
      noteIsolateRequest();
      const { gate } = call;
      if (gate === undefined) return this.#run(call);
      return runGated(gate, this.ctx, () => this.#run(call));
    }

    /** A query, mutation or action once admitted: run, timed and answered. */
    #run(call: ShardCall): Promise<ShardResult> {
      // Before the call can schedule a job: its jobs then run under the key it named.
      this.#appKey.note(call.shardKey);
      // Not an `async` method: one promise and one resumed frame less on every call.
      return this.#timed(
        call,
        (rejoin) => {
          const procedure =
            call.fromServer === true
              ? this.#dispatcher.serverProcedure(call.path)
              : this.#dispatcher.publicProcedure(call.path, "call");
          return this.#dispatcher.run(
            call.path,
            procedure,
            call.args,
            originOf(call, procedure, rejoin),
          );
        },
        call.answerAs === "json" ? JSON_ANSWERS : CALL_ANSWERS,
      );
    }

    async admin(request: ShardAdminRequest): Promise<ShardAdminResult> {
      return this.#admin(request);
    }

    openStream(call: ShardCall): Promise<ShardStreamResult> {
      noteIsolateRequest();
      return this.#timed(
        call,
        async () => {
          const procedure = this.#dispatcher.publicProcedure(call.path, "stream");
          const items = await this.#dispatcher.openStream(call.path, procedure, call.args, call);
          return encodeStream(items, (item) => checkOutput(call.path, procedure, item));
        },
        STREAM_ANSWERS,
      );
    }

    // Scheduled jobs (docs/scheduler.md): see ScheduledEndpoint.

    acceptScheduled(job: JobRow): Promise<void> {
      return this.#scheduler.accept(job);
    }

    runScheduled(until?: number): Promise<number> {
      return this.#scheduler.runDue(until ?? Date.now());
    }

    scheduledList(
      filter: JobFilter,
      cursor: string | null,
      limit: number,
    ): Promise<Outcome<JobPage>> {
      return outcome(() => listJobs(this.ctx.storage.sql, filter, cursor, limit));
    }

    scheduledCancel(selection: JobSelection): Promise<Outcome<number>> {
      return outcome(() => {
        const canceled = cancelJobs(this.ctx.storage.sql, selection);
        if (canceled > 0) this.#hub.commit(new Set([SCHEDULED_TABLE]));
        return canceled;
      });
    }

    // Data lifecycle (docs/data-lifecycle.md): only the worker's admin routes call these.

    exportData(): Promise<Outcome<ReadableStream<Uint8Array>>> {
      return outcome(() => this.#data.exportData());
    }

    importBegin(): Promise<Outcome<string>> {
      return outcome(() => this.#data.importBegin());
    }

    importLines(id: string, lines: NumberedLine[]): Promise<Outcome<null>> {
      return outcome(async () => {
        await this.#data.importLines(id, lines);
        return null;
      });
    }

    importCommit(id: string): Promise<Outcome<RestoreResult>> {
      return outcome(() => this.#data.importCommit(id));
    }

    importAbort(id: string): Promise<void> {
      return this.#data.importAbort(id);
    }

    deleteData(): Promise<Outcome<{ documents: number; deletedAt: number }>> {
      return outcome(async () => {
        const deleted = await this.#data.deleteData();
        // The files' metadata went with the data: their bytes go too.
        await this.#files.deleteAllBytes();
        return deleted;
      });
    }

    backupTo(target: BackupTarget): Promise<Outcome<BackupInfo>> {
      return outcome(() => this.#data.backupTo(target));
    }

    restoreFrom(bucket: string, backup: string): Promise<Outcome<RestoreResult>> {
      return outcome(() => this.#data.restoreFrom(bucket, backup));
    }

    rewind(at: number): Promise<Outcome<{ bookmark: string }>> {
      return outcome(() => this.#data.rewind(at));
    }

    // File storage (docs/storage.md): only the worker's storage routes call these.

    storageClaim(storageId: string): Promise<Outcome<null>> {
      return outcome(async () => {
        await this.#files.claim(storageId);
        return null;
      });
    }

    storageComplete(
      storageId: string,
      stored: StoredBytes,
      contentType: string,
    ): Promise<Outcome<null>> {
      return outcome(async () => {
        await this.#files.complete(storageId, stored, contentType);
        return null;
      });
    }

    storageCommit(
      storageId: string,
      stored: StoredBytes,
      contentType: string,
    ): Promise<Outcome<null>> {
      return outcome(async () => {
        await this.#files.commitUpload(storageId, stored, contentType);
        return null;
      });
    }

    storageAbort(storageId: string): Promise<void> {
      return this.#files.abort(storageId);
    }

    storageCollect(): Promise<Outcome<number>> {
      return outcome(() => this.#files.collect());
    }

    storageList(
      cursor: string | null,
      limit: number,
    ): Promise<Outcome<{ files: FileAdminView[]; cursor: string | null }>> {
      return outcome(() => listFiles(this.#files, cursor, limit));
    }

    storageReserve(storageId: string): Promise<Outcome<null>> {
      return outcome(async () => {
        await this.#files.reserve(storageId);
        return null;
      });
    }

    storageDelete(storageId: string): Promise<Outcome<null>> {
      return outcome(async () => {
        if (!(await this.#files.deleteNow(storageId)))
          throw new SvcError("NOT_FOUND", "No such file.");
        return null;
      });
    }

    async requestReport(): Promise<void> {
      this.#reporter?.noteWrite("all");
    }

    // Registry partitions (objects under reserved names) only.

    registryPut(report: ShardReport): Promise<void> {
      return this.#registry().registryPut(report);
    }

    registryGet(key: string): Promise<ShardEntry | null> {
      return this.#registry().registryGet(key);
    }

    registryList(options: {
      after: string;
      search: string | null;
      limit: number;
    }): Promise<DirectoryPage> {
      return this.#registry().registryList(options);
    }

    registryRemove(key: string, deletedAt: number): Promise<boolean> {
      return this.#registry().registryRemove(key, deletedAt);
    }

    backupRunStart(run: BackupRun): Promise<void> {
      return this.#registry().backupRunStart(run);
    }

    #registry(): RegistryPartition {
      if (this.#partition === undefined) throw new Error("svc: not a registry partition");
      return this.#partition;
    }
  };
}
