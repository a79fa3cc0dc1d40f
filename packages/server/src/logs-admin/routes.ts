import type { CronJobs } from "../cron/jobs.ts";
import { runCronJob } from "../cron/run.ts";
import { SvcError } from "../errors/svc-error.ts";
import { validationFailed } from "../errors/validation-failed.ts";
import { auditOutcome } from "../model/audit-outcome.ts";
import type { DataAuditSink } from "../model/data-audit.ts";
import type { RecordingPlan } from "../observability/plan.ts";
import type { RecordRun } from "../observability/recorder.ts";
import type { FunctionRegistry } from "../procedures/procedure.ts";
import type { QueueConsumers } from "../queue/consumers.ts";
import { implement } from "../routes/implement.ts";
import { type RouteServer, serveRoutes } from "../routes/serve.ts";
import type { ShardEndpoint } from "../shard/call.ts";
import { targetPath } from "../worker/server-calls.ts";
import { logsAdminRoutes } from "./contract.ts";
import { cronView, queueBacklog, queueView } from "./jobs.ts";
import { metricsOf } from "./metrics.ts";
import { PROMETHEUS_CONTENT_TYPE, prometheusText } from "./prometheus.ts";
import { encodeCursor, parseLogQuery, parseTimeBound } from "./query.ts";
import { StoreReader } from "./store-reader.ts";
import { tailResponse } from "./tail.ts";

const DAY = 86_400_000;

/** What the logs admin routes need from `createWorker`. */
export interface LogsAdminDeps {
  plan: RecordingPlan | null;
  functions: FunctionRegistry;
  crons: CronJobs | undefined;
  queues: QueueConsumers | undefined;
  /** The shard a cron job run now calls into. */
  shard(env: unknown, shardKey: string): ShardEndpoint;
  /** The procedure timeout a cron job run now gets. */
  timeoutMs: number;
  /** Where a cron job run now is recorded: `createWorker`'s audit sink. */
  audit: DataAuditSink;
}

/** What each logs route handler gets. */
interface LogsContext {
  env: unknown;
  deps: LogsAdminDeps;
  /** The admin token's name (who runs a cron job now). */
  operator: string;
  /** Records a cron job run now as a `cron` call, as its schedule would; absent when recording is off. */
  record?: RecordRun;
}

/** An open audit record of running a cron job now. */
interface CronAudit {
  operator: string;
  job: string;
  detail: string | null;
  sink: DataAuditSink;
}

function sinceOf(text: string | undefined, now: number, fallback: number): number {
  if (text === undefined) return now - fallback;
  const bound = parseTimeBound(text, now);
  if (bound === undefined) {
    throw validationFailed([
      { path: "query.since", message: "must be like 1h, 7d, an ISO-8601 time or epoch ms" },
    ]);
  }
  return bound;
}

/** The store's reader, or the absent surface's `404` saying how to turn it on. */
function readerOf({ env, deps }: LogsContext): StoreReader {
  const binding = deps.plan?.store ?? null;
  const namespace =
    binding === null
      ? undefined
      : ((env as Record<string, unknown> | undefined)?.[binding] as
          | DurableObjectNamespace
          | undefined);
  if (deps.plan === null || namespace === undefined || typeof namespace.getByName !== "function") {
    throw new SvcError(
      "NOT_FOUND",
      "Call records are not stored: bind the log store (LogStore) as SVC_LOGS in wrangler.jsonc.",
    );
  }
  return new StoreReader(namespace, deps.plan.partitions);
}

const pathOf = (deps: LogsAdminDeps) => (target: unknown) =>
  targetPath(deps.functions, target, ["query", "mutation", "action"]);

/** The logs routes with their handlers. */
const logsAdminImplementation = implement(logsAdminRoutes)
  .context<LogsContext, CronAudit>()
  .handlers({
    async listLogs({ query, ctx }) {
      const reader = readerOf(ctx);
      const parsed = parseLogQuery(query, Date.now());
      const placed = await reader.list(parsed.filters, parsed.cursor, parsed.limit);
      const last = placed.at(-1);
      return {
        records: placed.map((item) => item.record),
        cursor: placed.length === parsed.limit && last !== undefined ? encodeCursor(last) : null,
      };
    },
    async tailLogs({ query, ctx, request }) {
      const reader = readerOf(ctx);
      const { filters } = parseLogQuery(query, Date.now());
      return tailResponse(
        reader,
        ctx.deps.plan!.partitions,
        filters,
        request.headers.get("last-event-id"),
      );
    },
    async logGroups({ query, ctx }) {
      const now = Date.now();
      const groups = await readerOf(ctx).groups(
        sinceOf(query.since, now, 7 * DAY),
        query.limit ?? 50,
        query.admin !== "include",
      );
      return {
        groups: groups.map((group) => ({
          code: group.code,
          function: group.route,
          shape: group.shape,
          count: group.count,
          firstSeen: new Date(group.firstSeen).toISOString(),
          lastSeen: new Date(group.lastSeen).toISOString(),
          sample: group.sample,
        })),
      };
    },
    async logMetrics({ query, ctx }) {
      return metricsOf(readerOf(ctx), query.window ?? "1h", Date.now(), query.admin !== "include");
    },
    async cronRuns({ query, ctx }) {
      const since = sinceOf(query.since, Date.now(), DAY);
      const rows = await readerOf(ctx).services("cron", since);
      return {
        since: new Date(since).toISOString(),
        jobs: cronView(rows, ctx.deps.crons, pathOf(ctx.deps), new Date()),
      };
    },
    async runCron({ params, ctx, audit }) {
      const { deps, env } = ctx;
      const job = deps.crons?.jobs.find((declared) => declared.name === params.job);
      if (job === undefined)
        throw new SvcError("NOT_FOUND", `No cron job named ${params.job} in svc/crons.ts.`);
      const started = Date.now();
      await runCronJob(
        {
          functions: deps.functions,
          shard: (shardKey) => deps.shard(env, shardKey),
          timeoutMs: deps.timeoutMs,
          ...(ctx.record === undefined ? {} : { record: ctx.record }),
        },
        job,
      );
      const durationMs = Date.now() - started;
      audit.detail = `ran ${job.name} (${job.schedule}) in shard ${job.shardKey} in ${durationMs} ms`;
      return { job: job.name, shardKey: job.shardKey, durationMs };
    },
    async queueRuns({ query, ctx }) {
      const since = sinceOf(query.since, Date.now(), DAY);
      const rows = await readerOf(ctx).services("queue", since);
      return {
        since: new Date(since).toISOString(),
        queues: await queueView(rows, ctx.deps.queues, pathOf(ctx.deps), (binding) =>
          queueBacklog(ctx.env, binding),
        ),
      };
    },
    async getLog({ params, ctx }) {
      const reader = readerOf(ctx);
      if (!/^[A-Za-z0-9-]{1,64}$/.test(params.requestId))
        throw new SvcError("NOT_FOUND", "No such record.");
      const record = await reader.get(params.requestId);
      if (record === null)
        throw new SvcError("NOT_FOUND", "No such record (it may have been pruned).");
      return { record };
    },
    async prometheusMetrics({ ctx }) {
      const reader = readerOf(ctx);
      const [totals, stats] = await Promise.all([reader.totals(), reader.stats()]);
      return new Response(prometheusText(totals, stats), {
        headers: { "content-type": PROMETHEUS_CONTENT_TYPE, "cache-control": "no-store" },
      });
    },
  });

const server: RouteServer<LogsContext> = serveRoutes(logsAdminImplementation, {
  audit: {
    open: ({ params, ctx }) => ({
      operator: ctx.operator,
      job: params.job ?? "",
      detail: null,
      sink: ctx.deps.audit,
    }),
    async close(record, error) {
      await record.sink({
        operator: record.operator,
        action: "cron.run",
        targetType: "cron",
        targetId: record.job,
        ...auditOutcome(record.detail, error),
      });
    },
  },
});

/**
 * The logs admin API (`/_svc/admin/logs*`), the Prometheus endpoint
 * (`/_svc/admin/metrics`) and running a cron job now
 * (`/_svc/admin/crons/:job/run`, audited as `cron.run` by `operator`),
 * behind the admin gate that already ran: the declared routes of
 * {@link logsAdminRoutes}. Without a bound log store every route reading
 * records answers `404`, as an absent surface does, saying how to bind it.
 *
 * @see ../../../../../docs/admin-api.md
 */
export function handleLogsAdmin(request: Request, url: URL, ctx: LogsContext): Promise<Response> {
  const path = url.pathname.slice(logsAdminRoutes.prefix.length);
  return server.handle(request, { path, ctx });
}
