/**
 * @svc/client — a typed client for svc's RPC transport and live queries.
 *
 * @packageDocumentation
 */

export type { JobState, ScheduledJobStatus } from "@svc/server";
export {
  type CallOptions,
  type ClientOptions,
  createClient,
  type MutationOptions,
  type PaginatedArgs,
  type PaginatedItem,
  type PaginatedQueryOptions,
  type SubscribeOptions,
  SvcClient,
} from "./client.ts";
export { type ClientOnlyCode, SvcClientError } from "./client-error.ts";
export {
  type ConnectionStatus,
  type QueryState,
  type QueryWatch,
  queryKey,
} from "./live-store.ts";
export type { OptimisticLocalStore, OptimisticUpdate } from "./optimistic.ts";
export type { PaginatedState, PaginatedWatch, PaginationStatus } from "./paginated.ts";
export type { ArgsOf, OutputOf, PublicRef } from "./references.ts";
export { scheduledJob } from "./scheduled-job.ts";
export type { ConnectionState } from "./subscriptions.ts";
export { type UploadFileOptions, type UploadProgress, uploadFile } from "./upload.ts";
