/**
 * `@svc/server/routes/contract`: declaring routes and calling them, with
 * nothing of the server inside, so a browser bundle can import it. It
 * re-exports `v` and the field validators a declaration uses; the server
 * half (`implement`, the router, the OpenAPI document) is
 * `@svc/server/routes`.
 *
 * @example
 * ```ts
 * import { createRouteClient, route, routeGroup, text, v } from "@svc/server/routes/contract";
 *
 * export const notes = routeGroup({
 *   prefix: "/_svc/admin/notes/",
 *   tag: "notes",
 *   routes: {
 *     listNotes: route({
 *       method: "GET",
 *       path: "notes",
 *       summary: "List notes",
 *       query: v.object({ search: v.optional(text(200)) }),
 *       answer: v.object({ notes: v.array(v.object({ id: v.string(), body: v.string() })) }),
 *     }),
 *   },
 * });
 * const client = createRouteClient(notes, (request) => fetch(request.path, { method: request.method }));
 * const { notes: found } = await client.listNotes({ query: { search: "milk" } });
 * ```
 * @packageDocumentation
 */

export { SVC_ADMIN_GROUPS } from "../create-worker/admin-groups.ts";
export {
  BACKUPS_CAPABILITY,
  type BackupInfo,
  dataAdminRoutes,
  type RestoreResult,
  type ShardListEntry,
} from "../data-admin/contract.ts";
export { studioGroup } from "../data-admin/studio/contract.ts";
export type { ErrorCode } from "../errors/error-codes.ts";
export type {
  CronJobView,
  CronRunAnswer,
  ErrorGroupView,
  FunctionMetrics,
  MetricsAnswer,
  MetricsWindow,
  QueueBacklog,
  QueueView,
  SeriesPoint,
} from "../logs-admin/answers.ts";
export { logsAdminRoutes } from "../logs-admin/contract.ts";
export {
  DATA_AUDIT_ACTIONS,
  type DataAuditAction,
} from "../model/data-audit.ts";
export {
  type Caller,
  type CallFailure,
  type CallRecord,
  type ConsoleLine,
  type CronFacts,
  ENTRY_POINTS,
  type EntryPoint,
  type QueueFacts,
} from "../observability/record.ts";
export {
  type ClientRoute,
  clientRouteOf,
  createRouteClient,
  queryStringOf,
  type RawPayload,
  type RouteClient,
  type RouteClientOptions,
  type RouteInput,
  type RouteManifest,
  type RouteMethodOf,
  type RouteRequest,
  type RouteTransport,
  routeManifest,
} from "../routes/contract/client.ts";
export { fakeOf } from "../routes/contract/fake.ts";
export { integer, oneOf, text } from "../routes/contract/fields.ts";
export { named, schemaNameOf } from "../routes/contract/named.ts";
export {
  fillPattern,
  openApiPathOf,
  type ParamNames,
  type ParamsOf,
  paramNamesOf,
  parsePattern,
  type Segment,
} from "../routes/contract/pattern.ts";
export type { PublishedRoutes } from "../routes/contract/published.ts";
export {
  type AnswerSpec,
  type FileAnswer,
  fileAnswer,
  isRawBody,
  isValidatorAnswer,
  type RawBody,
  type RouteAnswer,
  type RouteBody,
  type RouteGroup,
  type RouteMethod,
  type RouteParams,
  type RouteQuery,
  type RouteSpec,
  type RouteTable,
  rawBody,
  route,
  routeGroup,
  type TypedAnswer,
  typedAnswer,
} from "../routes/contract/route.ts";
export { REST_OPENAPI_CAPABILITY, SVC_ADMIN_ROUTES } from "../routes/contract/svc-admin-routes.ts";
export { typeText } from "../routes/contract/type-text.ts";
export {
  type AcrossShardsCancel,
  type AcrossShardsJobPage,
  JOB_STATES,
  type JobPage,
  type JobState,
  type ScheduledJobView,
  type ShardFailure,
  type ShardJobView,
} from "../scheduler/job-view.ts";
export { schedulesAdminRoutes } from "../schedules-admin/contract.ts";
export { type FileAdminView, filesAdminRoutes } from "../storage/admin-contract.ts";
export type { ObjectType, ObjectValidator, Shape } from "../values/composites.ts";
export { v } from "../values/index.ts";
export { partsOf, type ValidatorParts } from "../values/parts.ts";
export type { AnyValidator, Infer, Validator } from "../values/validator.ts";
