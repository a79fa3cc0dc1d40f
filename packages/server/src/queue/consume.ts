import { describeFailure } from "../errors/describe-failure.ts";
import type { ProcedureKind } from "../model/call-meta.ts";
import { checkShardKey } from "../model/shard-key.ts";
import { noteCall } from "../observability/call-scope.ts";
import type { QueueFacts } from "../observability/record.ts";
import type { RecordRun } from "../observability/recorder.ts";
import type { FunctionRegistry } from "../procedures/procedure.ts";
import type { ShardEndpoint } from "../shard/call.ts";
import { runAsService, targetPath } from "../worker/server-calls.ts";
import type { QueueConsumer, QueueConsumers } from "./consumers.ts";

/** What a queue consumer may run. */
export const CONSUMER_KINDS: readonly ProcedureKind[] = ["mutation", "action"];

/** What consuming needs from `createWorker`. */
export interface QueueDeps {
  queues: QueueConsumers;
  functions: FunctionRegistry;
  shard(shardKey: string): ShardEndpoint;
  timeoutMs: number;
  /** Where failures are reported. @default console.error */
  log?: (message: string, error?: unknown) => void;
  /** Records each message (or batch) as a call (`createWorker`'s recorder); absent when recording is off. */
  record?: RecordRun;
}

/** Cloudflare's `max_retries` when `wrangler.jsonc` sets none. */
const DEFAULT_MAX_RETRIES = 3;

/** Runs `work` as the recorded call of one message or batch, when recording is on. */
function recorded(
  deps: QueueDeps,
  consumer: QueueConsumer,
  queue: Omit<QueueFacts, "queue" | "deadLettered">,
  work: () => Promise<void>,
): Promise<void> {
  if (deps.record === undefined) return work();
  const { queue: name } = consumer.definition;
  const maxRetries = consumer.options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const facts = {
    entry: "queue" as const,
    route: targetPath(deps.functions, consumer.options.run, CONSUMER_KINDS),
    caller: { kind: "service" as const, id: `queue:${name}` },
    queue: { queue: name, ...queue, deadLettered: queue.attempt > maxRetries },
  };
  return deps.record(facts, work);
}

function shardKeyFor(consumer: QueueConsumer, body: unknown): string {
  const { shardKey } = consumer.options;
  return checkShardKey(typeof shardKey === "function" ? shardKey(body) : (shardKey ?? "default"));
}

function run(deps: QueueDeps, consumer: QueueConsumer, args: unknown, shardKey: string) {
  const { queue } = consumer.definition;
  noteCall(null, { shardKey });
  return runAsService(deps, {
    service: `queue:${queue}`,
    transport: "queue",
    target: consumer.options.run,
    kinds: CONSUMER_KINDS,
    subject: `consumer of ${queue}`,
    args,
    shardKey,
  });
}

function invalid(consumer: QueueConsumer, body: unknown): string | undefined {
  const issues = consumer.definition.check(body);
  return issues.length === 0 ? undefined : `${issues[0]!.path}: ${issues[0]!.message}`;
}

/**
 * The worker's `queue` handler: finds the consumer of `batch.queue` and runs
 * it as the service `queue:<name>`. Per message: success acks, a throw (or a
 * body that fails the message validator) retries after `retryDelaySeconds`,
 * so after `max_retries` Cloudflare moves it to the dead-letter queue (or
 * drops it, when none is configured). Failures are logged with the queue, the
 * message id and the attempt; the handler itself never throws.
 *
 * @example
 * ```ts
 * async queue(batch) { await consumeBatch(deps, batch); }
 * ```
 */
export async function consumeBatch(deps: QueueDeps, batch: MessageBatch<unknown>): Promise<void> {
  const log =
    deps.log ?? ((message: string, error?: unknown) => console.error(message, error ?? ""));
  const consumer = deps.queues.consumers.find((c) => c.definition.queue === batch.queue);
  const retry = { delaySeconds: consumer?.options.retryDelaySeconds ?? 0 };
  if (consumer === undefined) {
    log(`svc: no consumer in svc/queues.ts for queue ${batch.queue}; its messages are retried`);
    batch.retryAll();
    return;
  }
  if (consumer.options.batch) {
    const bad = batch.messages.find((message) => invalid(consumer, message.body) !== undefined);
    const attempt = Math.max(1, ...batch.messages.map((m) => m.attempts));
    const facts = { messageId: null, messages: batch.messages.length, attempt };
    try {
      await recorded(deps, consumer, facts, async () => {
        if (bad !== undefined)
          throw new Error(`message ${bad.id} is invalid: ${invalid(consumer, bad.body)}`);
        const shardKey = shardKeyFor(consumer, batch.messages[0]?.body);
        await run(deps, consumer, { messages: batch.messages.map((m) => m.body) }, shardKey);
      });
      batch.ackAll();
    } catch (error) {
      log(
        `svc: queue consumer ${batch.queue} failed on a batch of ${batch.messages.length}:`,
        describeFailure(error),
      );
      batch.retryAll(retry);
    }
    return;
  }
  await Promise.all(
    batch.messages.map(async (message) => {
      try {
        const facts = { messageId: message.id, messages: 1, attempt: message.attempts };
        await recorded(deps, consumer, facts, async () => {
          const problem = invalid(consumer, message.body);
          if (problem !== undefined) throw new Error(`the message is invalid: ${problem}`);
          await run(deps, consumer, message.body, shardKeyFor(consumer, message.body));
        });
        message.ack();
      } catch (error) {
        log(
          `svc: queue consumer ${batch.queue} failed on message ${message.id} (attempt ${message.attempts}):`,
          describeFailure(error),
        );
        message.retry(retry);
      }
    }),
  );
}
