/**
 * @svc/client — a typed client for svc's RPC transport.
 *
 * @packageDocumentation
 */
export { type CallOptions, type ClientOptions, createClient, SvcClient } from "./client.ts";
export { type ClientOnlyCode, SvcClientError } from "./client-error.ts";
