import { DurableObject } from "cloudflare:workers";
import { shardAdmin } from "../data-admin/studio/shard-admin.ts";
import type { ShardAdminRequest, ShardAdminResult } from "../data-admin/studio/shard-protocol.ts";
import { applySchema } from "../db/storage.ts";
import { normalizeError } from "../errors/normalize.ts";
import { serializeError } from "../errors/svc-error.ts";
import type { FunctionRegistry } from "../procedures/procedure.ts";
import type { SchemaDefinition } from "../schema/define.ts";
import { SubscriptionHub } from "../subscriptions/hub.ts";
import type { ShardCall, ShardEndpoint, ShardResult, ShardStreamResult } from "./call.ts";
import { creationClock } from "./creation-clock.ts";
import { checkOutput, Dispatcher } from "./dispatch.ts";
import { encodeStream } from "./stream-encoding.ts";

/** What a shard class is built from. */
export interface ShardOptions {
  schema: SchemaDefinition;
  functions: FunctionRegistry;
}

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
) => DurableObject & ShardEndpoint {
  const { schema, functions } = options;
  return class SvcShard extends DurableObject implements ShardEndpoint {
    readonly #dispatcher: Dispatcher;
    readonly #hub: SubscriptionHub;
    readonly #admin: (request: ShardAdminRequest) => Promise<ShardAdminResult>;

    constructor(ctx: DurableObjectState, env: unknown) {
      super(ctx, env as never);
      ctx.blockConcurrencyWhile(async () => applySchema(ctx.storage.sql, schema));
      this.#dispatcher = new Dispatcher({
        functions,
        schema,
        storage: ctx.storage,
        now: creationClock(),
        onCommit: (tables) => this.#hub.commit(tables),
      });
      this.#hub = new SubscriptionHub(ctx, this.#dispatcher);
      this.#admin = shardAdmin({ schema, sql: ctx.storage.sql, dispatcher: this.#dispatcher });
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

    async admin(request: ShardAdminRequest): Promise<ShardAdminResult> {
      return this.#admin(request);
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
