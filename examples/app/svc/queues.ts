import { queueConsumers } from "@svc/server";
import { internal } from "./_generated/api.ts";
import { notificationQueue } from "./notifications.ts";

/**
 * The app's queue consumers. A message whose consumer throws is retried after
 * 5 s; after `max_retries` (wrangler.jsonc) Cloudflare moves it to the
 * dead-letter queue `svc-example-notifications-dead`, where it waits for an operator.
 */
const queues = queueConsumers();
queues.consume(notificationQueue, {
  run: internal.notifications.record,
  shardKey: (message) => message.shardKey,
  retryDelaySeconds: 5,
  // wrangler.jsonc's max_retries: call records mark the failure that dead-letters a message.
  maxRetries: 3,
});
export default queues;
