import type { Infer } from "../values/index.ts";
import { type AnyValidator, type Issue, toValidationIssues } from "../values/validator.ts";

/** Options of {@link defineQueue}. */
export interface QueueOptions<V extends AnyValidator> {
  /** The queue's name in Cloudflare (`queues.consumers[].queue` in `wrangler.jsonc`). */
  queue: string;
  /** The producer binding in `wrangler.jsonc` (`queues.producers[].binding`); needed to `send`. */
  binding?: string;
  /** Validator of one message body; checked on send and again on receipt. */
  message: V;
}

/** Options of one send (Cloudflare's). */
export interface SendOptions {
  /** Deliver no sooner than this many seconds from now (0–43200). */
  delaySeconds?: number;
}

/** Brands a queue definition. */
export const QUEUE_BRAND: unique symbol = Symbol.for("svc.queue");

/** A typed Cloudflare Queue: send from procedures and HTTP actions, consume in `svc/queues.ts`. */
export interface QueueDefinition<Body> {
  readonly [QUEUE_BRAND]: true;
  readonly queue: string;
  readonly binding: string | undefined;
  readonly message: AnyValidator;
  /** Validates and sends one message. */
  send(body: Body, options?: SendOptions): Promise<void>;
  /** Validates and sends up to 100 messages at once. */
  sendBatch(bodies: readonly Body[], options?: SendOptions): Promise<void>;
  /** Checks a body against the message validator; the issue list is empty when it passes. */
  check(body: unknown): { path: string; message: string }[];
}

type Env = Record<string, unknown>;

async function producer(name: string, binding: string | undefined): Promise<Queue> {
  if (binding === undefined)
    throw new Error(`svc: queue ${name} has no binding; pass defineQueue({ binding }) to send`);
  const env = (await import("cloudflare:workers")).env as unknown as Env;
  const queue = env[binding] as Queue | undefined;
  if (queue === undefined || typeof queue.send !== "function") {
    throw new Error(
      `svc: env has no queue producer binding named ${binding}; add it to wrangler.jsonc queues.producers`,
    );
  }
  return queue;
}

/**
 * Declares a Cloudflare Queue with a typed message. `send` validates the body
 * (a malformed message is a bug in the sender, thrown there, not a poison
 * message later) and uses the producer binding. Sending inside a mutation
 * happens at once, even if the mutation later fails; send last.
 *
 * @example
 * ```ts
 * export const notifications = defineQueue({
 *   queue: "notifications",
 *   binding: "NOTIFICATIONS",
 *   message: v.object({ messageId: v.string(), recipient: v.string() }),
 * });
 * await notifications.send({ messageId, recipient });
 * ```
 */
export function defineQueue<V extends AnyValidator>(
  options: QueueOptions<V>,
): QueueDefinition<Infer<V>> {
  const { queue, binding, message } = options;
  if (typeof queue !== "string" || !/^[A-Za-z0-9_-]{1,63}$/.test(queue))
    throw new Error(
      `svc: defineQueue queue name ${JSON.stringify(queue)} must be letters, digits, _ and - (up to 63)`,
    );
  const check = (body: unknown) => {
    const issues: Issue[] = [];
    message.check(body, { path: [], issues });
    return toValidationIssues("message", issues);
  };
  const checked = (body: unknown) => {
    const issues = check(body);
    if (issues.length > 0)
      throw new Error(
        `svc: a message for queue ${queue} is invalid: ${issues[0]!.path}: ${issues[0]!.message}`,
      );
    return body;
  };
  return Object.freeze({
    [QUEUE_BRAND]: true as const,
    queue,
    binding,
    message,
    check,
    async send(body: Infer<V>, sendOptions?: SendOptions) {
      await (await producer(queue, binding)).send(checked(body), sendOptions);
    },
    async sendBatch(bodies: readonly Infer<V>[], sendOptions?: SendOptions) {
      const messages = bodies.map((body) => ({ body: checked(body) }));
      await (await producer(queue, binding)).sendBatch(messages, sendOptions);
    },
  });
}

/** True for a value built by {@link defineQueue}. */
export function isQueueDefinition(value: unknown): value is QueueDefinition<unknown> {
  return typeof value === "object" && value !== null && QUEUE_BRAND in value;
}
