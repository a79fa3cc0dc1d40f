/**
 * The shapes of the logs admin API (`/_svc/admin/logs*`): the server's own
 * types, from the route declarations' browser-safe module, so the dashboard
 * and the server can never disagree about a record.
 */
export {
  type Caller,
  type CallRecord,
  type ConsoleLine,
  type CronJobView,
  ENTRY_POINTS,
  type EntryPoint,
  type ErrorGroupView as ErrorGroup,
  type FunctionMetrics,
  type MetricsAnswer,
  type MetricsWindow,
  type QueueBacklog,
  type QueueView,
} from "@svc/server/routes/contract";
