/**
 * `@svc/server/internal`: glue svc's own packages share (`@svc/auth`'s routes
 * and limits, the dashboard's preview, `@svc/testing`'s harness), kept out of
 * the app-facing barrel.
 * Not for apps: it follows svc's packages, not semver, and may change in any
 * release (tRPC calls its equivalent `unstable-core-do-not-import`). An app
 * answering the way svc does uses `SvcError` from `@svc/server` instead.
 *
 * @example
 * ```ts
 * // inside @svc/auth
 * import { problemResponse, readJsonBody } from "@svc/server/internal";
 * const body = await readJsonBody(request, 64 * 1024);
 * ```
 * @packageDocumentation
 */
export { type ProblemDetails, toProblem } from "./errors/problem.ts";
export { deserializeError } from "./errors/svc-error.ts";
export { decodeUtf8, isJsonContentType, readBodyBytes, readJsonBody } from "./http/body.ts";
export { type ProblemAnswerInit, problemResponse } from "./http/problem-response.ts";
export { requestUrl } from "./http/request-url.ts";
export { jsonResponse } from "./http/responses.ts";
export { addressKey, checkIpv6Prefix } from "./limits/address-key.ts";
export { ANONYMOUS_BUCKET } from "./limits/rate-limit-gate.ts";
export { enforceVerdict } from "./limits/verdicts.ts";
export { refuseOutOfScope } from "./model/api-key.ts";
export { checkShardKey, DEFAULT_SHARD } from "./model/shard-key.ts";
export { RareWarning } from "./observability/rare-warning.ts";
export type { ScheduledEndpoint } from "./scheduler/endpoint.ts";
export type { JobState } from "./scheduler/job-view.ts";
export type { JobRow } from "./scheduler/table.ts";
export type { ShardCall, ShardEndpoint, ShardResult } from "./shard/call.ts";
export { SHARD_IN_ISOLATE, type ShardInIsolate } from "./shard/in-isolate.ts";
export { DASHBOARD_CSP } from "./worker/dashboard-route.ts";
