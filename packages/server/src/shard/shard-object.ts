import { DurableObject } from "cloudflare:workers";
import { applySchema } from "../db/storage.ts";
import { normalizeError } from "../errors/normalize.ts";
import { type SerializedError, serializeError } from "../errors/svc-error.ts";
import { checkMigrations, type MigrationRegistry } from "../migrations/define.ts";
import type { DryRunReport } from "../migrations/dry-run.ts";
import { type MigrationStatus, ShardMigrations } from "../migrations/shard-migrations.ts";
import type { FunctionRegistry } from "../procedures/procedure.ts";
import { recordAppliedVersion } from "../schema/applied-version.ts";
import type { SchemaDefinition } from "../schema/define.ts";
import { SubscriptionHub } from "../subscriptions/hub.ts";
import type { ShardCall, ShardEndpoint, ShardResult, ShardStreamResult } from "./call.ts";
import { creationClock } from "./creation-clock.ts";
import { checkOutput, Dispatcher } from "./dispatch.ts";
import { IndexBuilds } from "./index-builds.ts";
import { encodeStream } from "./stream-encoding.ts";

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
}

/** What the worker's admin routes ask a shard about its migrations (Durable Object RPC). */
export interface MigrationEndpoint {
  migrationStatus(): Promise<MigrationStatus[]>;
  /** Starts or resumes a migration; the shard's alarm runs it batch by batch. */
  runMigration(name: string, shardKey: string): Promise<ShardResultOf<MigrationStatus[]>>;
  /** Counts what running it would change now, with before/after samples; writes nothing. */
  dryRunMigration(
    name: string,
    shardKey: string,
    samples: number,
  ): Promise<ShardResultOf<DryRunReport>>;
}

/** A shard's answer to an admin call: the value, or the error as the call path serializes it. */
export type ShardResultOf<T> = { ok: true; value: T } | { ok: false; error: SerializedError };

/**
 * Builds the shard Durable Object class of an app. Export the result from the
 * worker's main module and bind it (with SQLite storage) in `wrangler.jsonc`.
 * Each shard key gets its own instance and its own database.
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
) => DurableObject & ShardEndpoint & MigrationEndpoint {
  const { schema, functions } = options;
  const migrations = options.migrations ?? {};
  checkMigrations(migrations, new Set(Object.keys(schema.tables)));
  const { indexRowsAtStart } = options;
  if (
    indexRowsAtStart !== undefined &&
    (!Number.isInteger(indexRowsAtStart) || indexRowsAtStart < 0)
  )
    throw new Error("svc: createShard indexRowsAtStart must be a non-negative integer");
  return class SvcShard extends DurableObject implements ShardEndpoint, MigrationEndpoint {
    readonly #dispatcher: Dispatcher;
    readonly #hub: SubscriptionHub;
    readonly #migrations: ShardMigrations;
    readonly #indexes: IndexBuilds;

    constructor(ctx: DurableObjectState, env: unknown) {
      super(ctx, env as never);
      const now = creationClock();
      this.#migrations = new ShardMigrations({
        storage: ctx.storage,
        schema,
        migrations,
        exclusive: (task) => this.#dispatcher.exclusive(task),
        shardKey: ctx.id.name,
      });
      this.#indexes = new IndexBuilds(ctx.storage, (task) => this.#dispatcher.exclusive(task));
      ctx.blockConcurrencyWhile(async () => {
        const deferred = applySchema(ctx.storage.sql, schema, options.indexRowsAtStart);
        await recordAppliedVersion(ctx.storage.sql, schema);
        now.raise(this.#migrations.register());
        await this.#indexes.schedule(deferred);
      });
      this.#dispatcher = new Dispatcher({
        functions,
        schema,
        storage: ctx.storage,
        now,
        onCommit: (tables) => this.#hub.commit(tables),
        view: this.#migrations,
      });
      this.#hub = new SubscriptionHub(ctx, this.#dispatcher);
    }

    /** The subscription socket, forwarded by the worker's `/_svc/ws` route. */
    override async fetch(request: Request): Promise<Response> {
      return this.#hub.accept(request);
    }

    override async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
      await this.#hub.message(ws, message);
    }

    override async webSocketClose(ws: WebSocket): Promise<void> {
      this.#hub.close(ws);
    }

    override async webSocketError(ws: WebSocket): Promise<void> {
      this.#hub.close(ws);
    }

    override async alarm(): Promise<void> {
      await this.#hub.alarm();
      await this.#indexes.alarm();
      // Last: it re-arms the alarm for its next batch if the hub just set a later one.
      await this.#migrations.alarm();
    }

    async migrationStatus(): Promise<MigrationStatus[]> {
      return this.#migrations.status();
    }

    async runMigration(name: string, shardKey: string): Promise<ShardResultOf<MigrationStatus[]>> {
      try {
        return { ok: true, value: await this.#migrations.run(name, shardKey) };
      } catch (thrown) {
        return { ok: false, error: serializeError(normalizeError(thrown)) };
      }
    }

    async dryRunMigration(
      name: string,
      shardKey: string,
      samples: number,
    ): Promise<ShardResultOf<DryRunReport>> {
      try {
        return { ok: true, value: await this.#migrations.dryRun(name, shardKey, samples) };
      } catch (thrown) {
        return { ok: false, error: serializeError(normalizeError(thrown)) };
      }
    }

    async call(call: ShardCall): Promise<ShardResult> {
      try {
        const procedure = this.#dispatcher.publicProcedure(call.path, "call");
        const value = await this.#dispatcher.run(call.path, procedure, call.args, call);
        return { ok: true, value };
      } catch (thrown) {
        return { ok: false, error: serializeError(normalizeError(thrown)) };
      }
    }

    async callFromServer(call: ShardCall): Promise<ShardResult> {
      try {
        const procedure = this.#dispatcher.serverProcedure(call.path);
        const value = await this.#dispatcher.run(call.path, procedure, call.args, call);
        return { ok: true, value };
      } catch (thrown) {
        return { ok: false, error: serializeError(normalizeError(thrown)) };
      }
    }

    async openStream(call: ShardCall): Promise<ShardStreamResult> {
      try {
        const procedure = this.#dispatcher.publicProcedure(call.path, "stream");
        const items = await this.#dispatcher.openStream(call.path, procedure, call.args, call);
        return {
          ok: true,
          body: encodeStream(items, (item) => checkOutput(call.path, procedure, item)),
        };
      } catch (thrown) {
        return { ok: false, error: serializeError(normalizeError(thrown)) };
      }
    }
  };
}
