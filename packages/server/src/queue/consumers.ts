import { isReferenceLike, type RunnableReference } from "../procedures/references.ts";
import type { QueueDefinition } from "./define.ts";

/** How one queue is consumed. */
export interface ConsumerOptions<Body> {
  /**
   * What runs: per message (default) a mutation or action taking the body as
   * its arguments; with `batch: true` one taking `{ messages: Body[] }`.
   */
  run:
    | RunnableReference<"mutation" | "action", Body, unknown>
    | RunnableReference<"mutation" | "action", { messages: Body[] }, unknown>;
  /** Runs the whole batch in one call (`{ messages }`); success acks all, failure retries all. */
  batch?: boolean;
  /** The shard to run in: a key, or one computed from the body. @default "default" */
  shardKey?: string | ((body: Body) => string);
  /** Delay before a failed message is delivered again. @default 0 */
  retryDelaySeconds?: number;
  /**
   * The queue's `max_retries` in `wrangler.jsonc`, so call records can mark
   * the failure that sends a message to the dead-letter queue (its
   * `attempt` is past this). @default 3 (Cloudflare's default)
   */
  maxRetries?: number;
}

/** One declared consumer. */
export interface QueueConsumer {
  definition: QueueDefinition<unknown>;
  options: ConsumerOptions<unknown>;
}

/** Brands a consumer list. */
export const QUEUE_CONSUMERS_BRAND: unique symbol = Symbol.for("svc.queueConsumers");

/** The app's queue consumers: the default export of `svc/queues.ts`. */
export interface QueueConsumers {
  readonly [QUEUE_CONSUMERS_BRAND]: true;
  /**
   * Consumes `queue`: each message runs `options.run` as the service
   * `queue:<name>`; success acks it, a throw retries it (Cloudflare moves it
   * to the dead-letter queue after `max_retries`, when one is configured).
   */
  consume<Body>(queue: QueueDefinition<Body>, options: ConsumerOptions<Body>): QueueConsumers;
  readonly consumers: readonly QueueConsumer[];
}

/**
 * Starts the app's consumer list. Export it as the default of
 * `svc/queues.ts`; `svc codegen` finds it and `createWorker({ queues })`
 * serves the worker's `queue` handler. Consume a dead-letter queue like any
 * other, with a definition of its own.
 *
 * @example
 * ```ts
 * const queues = queueConsumers();
 * queues.consume(notifications, { run: internal.notifications.record, retryDelaySeconds: 5 });
 * export default queues;
 * ```
 */
export function queueConsumers(): QueueConsumers {
  const consumers: QueueConsumer[] = [];
  const list: QueueConsumers = {
    [QUEUE_CONSUMERS_BRAND]: true,
    consume(definition, options) {
      const name = (definition as { queue?: unknown } | null)?.queue;
      if (typeof name !== "string")
        throw new Error("svc: consume() takes a queue from defineQueue(...)");
      if (consumers.some((c) => c.definition.queue === name))
        throw new Error(`svc: queue ${name} is consumed twice`);
      if (!isReferenceLike(options?.run))
        throw new Error(
          `svc: the consumer of queue ${name} must run a procedure reference (internal.x.y)`,
        );
      const delay = options.retryDelaySeconds ?? 0;
      if (!Number.isInteger(delay) || delay < 0 || delay > 43_200)
        throw new Error(
          `svc: retryDelaySeconds of queue ${name} must be an integer from 0 to 43200`,
        );
      const maxRetries = options.maxRetries ?? 3;
      if (!Number.isInteger(maxRetries) || maxRetries < 0 || maxRetries > 100)
        throw new Error(`svc: maxRetries of queue ${name} must be an integer from 0 to 100`);
      consumers.push({
        definition: definition as QueueDefinition<unknown>,
        options: options as ConsumerOptions<unknown>,
      });
      return list;
    },
    get consumers() {
      return [...consumers];
    },
  };
  return list;
}

/** True for a value built by {@link queueConsumers}. */
export function isQueueConsumers(value: unknown): value is QueueConsumers {
  return typeof value === "object" && value !== null && QUEUE_CONSUMERS_BRAND in value;
}
