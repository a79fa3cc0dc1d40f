// The modules themselves, not the contract's index: the index re-exports this group.

import type { CallRecord } from "../observability/record.ts";
import { ENTRY_POINTS } from "../observability/record.ts";
import { integer, oneOf, text } from "../routes/contract/fields.ts";
import { fileAnswer, route, routeGroup, typedAnswer } from "../routes/contract/route.ts";
import { v } from "../values/index.ts";
import type {
  CronJobView,
  CronRunAnswer,
  ErrorGroupView,
  MetricsAnswer,
  QueueView,
} from "./answers.ts";

/** Records per page when `limit` is not given. */
export const DEFAULT_PAGE = 50;
/** The most records one page holds. */
export const MAX_PAGE = 200;

/**
 * Whether the admin API's own calls (entry `admin`) count: `exclude` (the
 * default) shows the app's traffic only; they are recorded either way.
 */
const adminCalls = { admin: v.optional(oneOf(["include", "exclude"])) };

/** The record filters of the list and the tail (docs/admin-api.md, "Logs and metrics"). */
const filters = {
  ...adminCalls,
  function: v.optional(text(200)),
  entry: v.optional(oneOf(ENTRY_POINTS)),
  status: v.optional(text(40)),
  user: v.optional(text(200)),
  shard: v.optional(text(200)),
  since: v.optional(text(40)),
  until: v.optional(text(40)),
  q: v.optional(text(200)),
};

const since = v.object({ since: v.optional(text(40)) });

/**
 * The logs and metrics admin routes (`/_svc/admin/logs*`,
 * `/_svc/admin/metrics`) and running a cron job now
 * (`/_svc/admin/crons/:job/run`), declared once each: `createWorker` serves them,
 * and the admin OpenAPI document, the docs table and a typed client derive
 * from them. Static paths come before `logs/:requestId`, which the router
 * tries in order.
 */
export const logsAdminRoutes = routeGroup({
  prefix: "/_svc/admin/",
  tag: "logs",
  routes: {
    listLogs: route({
      method: "GET",
      path: "logs",
      summary: "Call records, newest first",
      description:
        "Filters: `admin` (`exclude`, the default, leaves out the admin API's own calls unless `entry=admin`; `include` keeps them), `function`, `entry`, `status` (`2xx`…`5xx`, `failed`, an HTTP status or an error code), `user` (caller id), `shard`, `since`/`until` (`15m`, `1h`, `7d`, ISO-8601 or epoch ms), `q` (text in errors and console lines). Paged by `cursor`.",
      query: v.object({
        ...filters,
        cursor: v.optional(text(200)),
        limit: v.optional(integer(1, MAX_PAGE)),
      }),
      answer: typedAnswer<{ records: CallRecord[]; cursor: string | null }>(
        "A page of records and the cursor of the next page (null at the end)",
      ),
      errors: ["NOT_FOUND"],
    }),
    tailLogs: route({
      method: "GET",
      path: "logs/tail",
      summary: "New call records as they are written (server-sent events)",
      description:
        "One `record` event per new record matching the filters; `Last-Event-ID` resumes. Ends after 10 minutes.",
      query: v.object(filters),
      answer: fileAnswer({ "text/event-stream": v.string() }, "Server-sent events"),
      errors: ["NOT_FOUND"],
    }),
    logGroups: route({
      method: "GET",
      path: "logs/groups",
      summary: "Failed calls grouped by code, function and message shape",
      description:
        "Groups whose calls are the admin API's own are left out unless `admin=include`.",
      query: v.object({
        ...adminCalls,
        since: v.optional(text(40)),
        limit: v.optional(integer(1, 200)),
      }),
      answer: typedAnswer<{ groups: ErrorGroupView[] }>("Groups, most recently seen first"),
      errors: ["NOT_FOUND"],
    }),
    logMetrics: route({
      method: "GET",
      path: "logs/metrics",
      summary: "Calls, errors and p50/p95/p99 per function over a window",
      description: "The admin API's own calls are left out unless `admin=include`.",
      query: v.object({ ...adminCalls, window: v.optional(oneOf(["1h", "24h", "7d"])) }),
      answer: typedAnswer<MetricsAnswer>("Metrics per function and entry point"),
      errors: ["NOT_FOUND"],
    }),
    cronRuns: route({
      method: "GET",
      path: "logs/cron",
      summary: "Cron jobs: runs, failures, last run and failure",
      query: since,
      answer: typedAnswer<{ since: string; jobs: CronJobView[] }>("Every declared job"),
      errors: ["NOT_FOUND"],
    }),
    runCron: route({
      method: "POST",
      path: "crons/:job/run",
      summary: "Run a declared cron job now",
      description:
        "Runs the job as its service identity (`cron:<name>`) in its shard, as its schedule would, and records `cron.run` in the audit trail with its outcome. A failing job answers its error.",
      answer: typedAnswer<CronRunAnswer>("The job ran"),
      errors: ["NOT_FOUND"],
      audit: "cron.run",
    }),
    queueRuns: route({
      method: "GET",
      path: "logs/queues",
      summary: "Queues: messages, failures, dead letters, last run and failure",
      query: since,
      answer: typedAnswer<{ since: string; queues: QueueView[] }>("Every consumed queue"),
      errors: ["NOT_FOUND"],
    }),
    getLog: route({
      method: "GET",
      path: "logs/:requestId",
      summary: "One call record by request id",
      answer: typedAnswer<{ record: CallRecord }>("The record"),
      errors: ["NOT_FOUND"],
    }),
    prometheusMetrics: route({
      method: "GET",
      path: "metrics",
      summary: "Call totals and durations in Prometheus's text format",
      description:
        "The app's calls are `svc_calls_total` and `svc_call_duration_seconds`; the admin API's own calls are apart, as `svc_admin_calls_total` and `svc_admin_call_duration_seconds`.",
      answer: fileAnswer({ "text/plain": v.string() }, "Prometheus text exposition format 0.0.4"),
      errors: ["NOT_FOUND"],
    }),
  },
});
