import { DurableObject } from "cloudflare:workers";
import { applySchema } from "../db/storage.ts";
import { normalizeError } from "../errors/normalize.ts";
import { type SerializedError, serializeError } from "../errors/svc-error.ts";
import type { ShardObservation } from "../observability/call-scope.ts";
import { type ObservedRun, observeRun } from "../observability/observe-run.ts";
import { ShardRunRecorder } from "../observability/shard-recorder.ts";
import type { FunctionRegistry } from "../procedures/procedure.ts";
import type { SchemaDefinition } from "../schema/define.ts";
import { SubscriptionHub } from "../subscriptions/hub.ts";
import type { ShardCall, ShardEndpoint, ShardResult, ShardStreamResult } from "./call.ts";
import { creationClock } from "./creation-clock.ts";
import { checkOutput, Dispatcher } from "./dispatch.ts";
import { encodeStream } from "./stream-encoding.ts";

/**
 * A shard's answer: the value (shaped by `ok`) or the serialized error, plus
 * what was observed for the worker's call record. Errors are normalized here,
 * outside the call's scope, so svc's own logging is not taken for the handler's.
 */
function answer<T, R extends object>(
  run: ObservedRun<T>,
  ok: (value: T) => R,
): (R | { ok: false; error: SerializedError }) & { observed?: ShardObservation } {
  const observed = run.observation === undefined ? {} : { observed: run.observation };
  if (run.ok) return { ...ok(run.value), ...observed };
  return { ok: false, error: serializeError(normalizeError(run.thrown)), ...observed };
}

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
      const recorder = new ShardRunRecorder(env, (promise) => ctx.waitUntil(promise));
      this.#hub = new SubscriptionHub(ctx, this.#dispatcher, recorder);
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
      const run = await observeRun(call.record, () => {
        const procedure = this.#dispatcher.publicProcedure(call.path, "call");
        return this.#dispatcher.run(call.path, procedure, call.args, call);
      });
      return answer(run, (value) => ({ ok: true, value }));
    }

    async callFromServer(call: ShardCall): Promise<ShardResult> {
      const run = await observeRun(call.record, () => {
        const procedure = this.#dispatcher.serverProcedure(call.path);
        return this.#dispatcher.run(call.path, procedure, call.args, call);
      });
      return answer(run, (value) => ({ ok: true, value }));
    }

    async openStream(call: ShardCall): Promise<ShardStreamResult> {
      const run = await observeRun(call.record, async () => {
        const procedure = this.#dispatcher.publicProcedure(call.path, "stream");
        const items = await this.#dispatcher.openStream(call.path, procedure, call.args, call);
        return encodeStream(items, (item) => checkOutput(call.path, procedure, item));
      });
      return answer(run, (body) => ({ ok: true, body }));
    }
  };
}
