/**
 * `@svc/server/http`: the HTTP glue svc's own packages share (`@svc/auth`'s
 * routes and limits, the dashboard's preview), kept out of the app-facing
 * barrel. Apps rarely need it; a worker with hand-written routes can use it
 * to answer exactly as svc does.
 *
 * @example
 * ```ts
 * import { problemResponse, readJsonBody } from "@svc/server/http";
 * const body = await readJsonBody(request, 64 * 1024);
 * ```
 * @packageDocumentation
 */
export { type ProblemDetails, problemResponse, toProblem } from "./errors/problem.ts";
export { ANONYMOUS_BUCKET, enforceVerdict } from "./rest/rate-limit-gate.ts";
export type { ShardCall, ShardEndpoint, ShardResult } from "./shard/call.ts";
export { decodeUtf8, isJsonContentType, readBodyBytes, readJsonBody } from "./worker/body.ts";
export { DASHBOARD_CSP } from "./worker/dashboard-route.ts";
export { jsonResponse } from "./worker/responses.ts";
