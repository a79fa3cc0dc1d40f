/**
 * @svc/server — procedures, validators, the shard Durable Object and the
 * worker factory.
 *
 * @packageDocumentation
 */

export type { BackupHeader } from "./backups/format.ts";
export type { BackupInfo } from "./backups/r2.ts";
export { createWorker, type SvcWorker, type WorkerOptions } from "./create-worker.ts";
export { type CronJob, type CronJobs, type CronTarget, cronJobs } from "./cron/jobs.ts";
export { dataAdminRoutes } from "./data-admin/contract.ts";
export type { BackupsOptions } from "./data-admin/options.ts";
export { paginationOptsValidator } from "./db/pagination.ts";
export type {
  SearchFilterBuilder,
  SearchFilterFinalizer,
  SearchQuery,
} from "./db/search/types.ts";
export type {
  DatabaseReader,
  DatabaseWriter,
  PaginationOptions,
  PaginationResult,
  Query,
} from "./db/types.ts";
export {
  type CodedError,
  defineErrorCodes,
  type ErrorCodeFamily,
  type ErrorCodeSpec,
  type ProblemFields,
} from "./errors/define-error-codes.ts";
export { ERROR_STATUS, type ErrorCode, svcErrorCodes } from "./errors/error-codes.ts";
export { SvcError, type SvcErrorOptions, type ValidationIssue } from "./errors/svc-error.ts";
export { MAX_REPORTED_ISSUES, validationFailed } from "./errors/validation-failed.ts";
export {
  type HttpAction,
  type HttpActionBuilder,
  type HttpActionCtx,
  type HttpActionMeta,
  type HttpHandler,
  httpAction,
} from "./http-actions/action.ts";
export { type CorsOptions, DEFAULT_CORS_HEADERS } from "./http-actions/cors.ts";
export {
  type HttpMethod,
  type HttpRoute,
  type HttpRouter,
  httpRouter,
} from "./http-actions/router.ts";
export {
  type ApiKeyRateLimitGate,
  type ApiKeyRateLimitOptions,
  createApiKeyRateLimit,
} from "./limits/api-key-rate-limit.ts";
export {
  createRestRateLimit,
  type RestRateLimitGate,
  type RestRateLimitOptions,
} from "./limits/rate-limit-gate.ts";
export { DEFAULT_SOCKET_LIMITS, type SocketLimits } from "./limits/socket-limits.ts";
export {
  createSocketRateLimit,
  type SocketRateLimitGate,
  type SocketRateLimitOptions,
} from "./limits/socket-rate-limit.ts";
export type { GateHeaders, LimiterLike, RateLimitVerdict } from "./limits/verdicts.ts";
export { logsAdminRoutes } from "./logs-admin/contract.ts";
export {
  type DropTableOptions,
  defineMigration,
  type Migration,
  type MigrationCtx,
  type MigrationOptions,
  type MigrationOutcome,
  type MigrationRegistry,
  type Replacement,
  replaceWith,
  type StoredDocumentOf,
} from "./migrations/define.ts";
export type { DryRunReport, DryRunSample } from "./migrations/dry-run.ts";
export type { MigrationStatus } from "./migrations/shard-migrations.ts";
export type {
  MigrationCounts,
  MigrationCursor,
  MigrationError,
  MigrationRecord,
  MigrationState,
} from "./migrations/store.ts";
export {
  type ApiKeyCaller,
  apiKeyScopeAllows,
  isApiKeyScope,
  READ_ONLY_SUFFIX,
  type ScopeTarget,
} from "./model/api-key.ts";
export type { BaseCtx } from "./model/base-ctx.ts";
export type { CallMeta, ProcedureKind, Transport, Visibility } from "./model/call-meta.ts";
export {
  DATA_AUDIT_ACTIONS,
  type DataAuditAction,
  type DataAuditEntry,
  type DataAuditTargetType,
} from "./model/data-audit.ts";
export type { AuthContext, CallerKind, Identity } from "./model/identity.ts";
export type { PolicyCtx } from "./model/policy-ctx.ts";
export type { LogsOptions } from "./observability/plan.ts";
export type {
  Caller,
  CallFailure,
  CallRecord,
  ConsoleLine,
  CronFacts,
  EntryPoint,
  QueueFacts,
} from "./observability/record.ts";
export { recordBodies } from "./observability/store/bodies.ts";
export type { LogDrain } from "./observability/store/drain.ts";
export { createLogStore, LogStore, type LogStoreOptions } from "./observability/store/log-store.ts";
export {
  action,
  type Builder,
  internalAction,
  internalMutation,
  internalQuery,
  type LogOptions,
  mutation,
  query,
  stream,
} from "./procedures/builder.ts";
export type { ActionCtx, MutationCtx, QueryCtx } from "./procedures/context.ts";
export {
  defineMiddleware,
  type Middleware,
  type MiddlewareResult,
} from "./procedures/middleware.ts";
export {
  type AnyProcedure,
  type FunctionRegistry,
  isProcedure,
  type Procedure,
} from "./procedures/procedure.ts";
export {
  type FunctionReference,
  makeReference,
  type ReferenceOf,
} from "./procedures/references.ts";
export { type RestRoute, restRouteOf } from "./procedures/rest-routes.ts";
export type {
  SchedulableReference,
  ScheduleArgs,
  ScheduledJobId,
  ScheduleOptions,
  Scheduler,
} from "./procedures/scheduler.ts";
export {
  type ConsumerOptions,
  type QueueConsumer,
  type QueueConsumers,
  queueConsumers,
} from "./queue/consumers.ts";
export {
  defineQueue,
  type QueueDefinition,
  type QueueOptions,
  type SendOptions,
} from "./queue/define.ts";
export type { ShardEntry } from "./registry/directory.ts";
export { SCHEDULED_JOB_QUERY, type ScheduledJobStatus } from "./scheduler/job-status.ts";
export type {
  AcrossShardsCancel,
  AcrossShardsJobPage,
  JobPage,
  JobState,
  ScheduledJobView,
  ShardFailure,
  ShardJobView,
} from "./scheduler/job-view.ts";
export { SCHEDULER_LIMITS, type SchedulerLimit } from "./scheduler/limits.ts";
export { schedulesAdminRoutes } from "./schedules-admin/contract.ts";
export type { DataModelOf, Register } from "./schema/data-model.ts";
export {
  defineSchema,
  defineTable,
  type SchemaDefinition,
  type TableDefinition,
} from "./schema/define.ts";
export type { TablePolicies } from "./schema/policy.ts";
export {
  type ApiKeyField,
  type Literal,
  type Operand,
  type Rule,
  rule,
} from "./schema/rule.ts";
export type { SearchIndexSpec } from "./schema/search-index.ts";
export type { MigrationEndpoint } from "./shard/migration-endpoint.ts";
export {
  createShard,
  type ShardOptions,
  type ShardRegistryOptions,
} from "./shard/shard-object.ts";
export { type FileAdminView, filesAdminRoutes } from "./storage/admin-contract.ts";
export type {
  DownloadUrlOptions,
  StorableBody,
  StorageActionWriter,
  StorageReader,
  StorageWriter,
  UploadUrlOptions,
} from "./storage/context.ts";
export type { StorageOptions } from "./storage/options.ts";
export type { FileMetadata } from "./storage/table.ts";
export {
  type Id,
  type Infer,
  type NumberOptions,
  type StringOptions,
  type Validator,
  v,
} from "./values/index.ts";
export {
  type NumberParts,
  partsOf,
  type StringParts,
  type ValidatorParts,
} from "./values/parts.ts";
export type { AdminTokenOption } from "./worker/admin-gate.ts";
export type { AuthAdminSurface, DashboardAssets } from "./worker/extensions.ts";
export type { IdentityResolver } from "./worker/invoke.ts";
export type {
  ServerCalls,
  ServerRunAction,
  ServerRunMutation,
  ServerRunQuery,
  ShardCallOptions,
} from "./worker/server-calls.ts";
export type { ShardAccess, ShardAccessHook } from "./worker/shard-access.ts";
