/**
 * @svc/client — a typed client for svc's RPC transport and live queries.
 *
 * @packageDocumentation
 */
export {
  type CallOptions,
  type ClientOptions,
  createClient,
  type SubscribeOptions,
  SvcClient,
} from "./client.ts";
export { type ClientOnlyCode, SvcClientError } from "./client-error.ts";
export type { ConnectionState } from "./subscriptions.ts";
