import type { CronJobs } from "../../cron/jobs.ts";
import { SvcError } from "../../errors/svc-error.ts";
import { validationFailed } from "../../errors/validation-failed.ts";
import type { FunctionRegistry } from "../../procedures/procedure.ts";
import type { QueueConsumers } from "../../queue/consumers.ts";
import { jsonResponse } from "../../worker/responses.ts";
import { targetPath } from "../../worker/server-calls.ts";
import type { RecordingPlan } from "../plan.ts";
import { cronView, queueView } from "./jobs.ts";
import { METRICS_WINDOWS, type MetricsWindow, metricsOf } from "./metrics.ts";
import { PROMETHEUS_CONTENT_TYPE, prometheusText } from "./prometheus.ts";
import { encodeCursor, parseLogQuery, parseTimeBound } from "./query.ts";
import { StoreReader } from "./store-reader.ts";
import { tailResponse } from "./tail.ts";

/** Path of the logs admin API; everything under it is this module's. */
export const LOGS_PATH = "/_svc/admin/logs";
/** Path of the Prometheus scrape endpoint. */
export const METRICS_PATH = "/_svc/admin/metrics";

const DAY = 86_400_000;

/** What the logs admin routes need from `createWorker`. */
export interface LogsAdminDeps {
  plan: RecordingPlan | null;
  functions: FunctionRegistry;
  crons: CronJobs | undefined;
  queues: QueueConsumers | undefined;
}

/** True for the paths {@link handleLogsAdmin} answers. */
export function isLogsAdminPath(path: string): boolean {
  return path === LOGS_PATH || path.startsWith(`${LOGS_PATH}/`) || path === METRICS_PATH;
}

function onlyParams(params: URLSearchParams, allowed: readonly string[]): void {
  const unknown = [...new Set(params.keys())].filter((name) => !allowed.includes(name));
  if (unknown.length > 0) {
    throw validationFailed(
      unknown.map((name) => ({
        path: `query.${name}`,
        message: "is not a parameter of this route",
      })),
    );
  }
}

function sinceOf(params: URLSearchParams, now: number, fallback: number): number {
  const text = params.get("since");
  if (text === null || text === "") return now - fallback;
  const bound = parseTimeBound(text, now);
  if (bound === undefined) {
    throw validationFailed([
      { path: "query.since", message: "must be like 1h, 7d, an ISO-8601 time or epoch ms" },
    ]);
  }
  return bound;
}

function limitOf(params: URLSearchParams, fallback: number, max: number): number {
  const text = params.get("limit");
  if (text === null || text === "") return fallback;
  const limit = Number(text);
  if (!Number.isInteger(limit) || limit < 1 || limit > max) {
    throw validationFailed([
      { path: "query.limit", message: `must be an integer from 1 to ${max}` },
    ]);
  }
  return limit;
}

function readerOf(deps: LogsAdminDeps, env: unknown): StoreReader {
  const binding = deps.plan?.store;
  const namespace =
    binding === null || binding === undefined
      ? undefined
      : ((env as Record<string, unknown> | undefined)?.[binding] as
          | DurableObjectNamespace
          | undefined);
  if (namespace === undefined || typeof namespace.getByName !== "function") {
    throw new SvcError(
      "NOT_FOUND",
      "Call records are not stored: bind the log store (LogStore) as SVC_LOGS in wrangler.jsonc.",
    );
  }
  return new StoreReader(namespace, deps.plan!.partitions);
}

/**
 * The logs admin API (`/_svc/admin/logs*`) and the Prometheus endpoint
 * (`/_svc/admin/metrics`), behind the admin gate that already ran. All are
 * `GET`; answers are JSON (`cache-control: no-store`) but the tail (server-sent
 * events) and the metrics (Prometheus text). Without a bound log store every
 * route answers 404, as an absent surface does.
 *
 * @see ../../../../../docs/admin-api.md
 */
export async function handleLogsAdmin(
  request: Request,
  url: URL,
  env: unknown,
  deps: LogsAdminDeps,
): Promise<Response> {
  if (request.method !== "GET") {
    throw new SvcError("METHOD_NOT_ALLOWED", "GET only.", { headers: { allow: "GET" } });
  }
  const reader = readerOf(deps, env);
  const partitions = deps.plan!.partitions;
  const params = url.searchParams;
  const now = Date.now();
  const sub = url.pathname === METRICS_PATH ? "(metrics)" : url.pathname.slice(LOGS_PATH.length);
  const pathOf = (target: unknown) =>
    targetPath(deps.functions, target, ["query", "mutation", "action"]);
  switch (sub) {
    case "(metrics)": {
      onlyParams(params, []);
      const [totals, stats] = await Promise.all([reader.totals(), reader.stats()]);
      return new Response(prometheusText(totals, stats), {
        headers: { "content-type": PROMETHEUS_CONTENT_TYPE, "cache-control": "no-store" },
      });
    }
    case "":
    case "/": {
      const query = parseLogQuery(params, now);
      const placed = await reader.list(query.filters, query.cursor, query.limit);
      const last = placed.at(-1);
      return jsonResponse({
        records: placed.map((item) => item.record),
        cursor: placed.length === query.limit && last !== undefined ? encodeCursor(last) : null,
      });
    }
    case "/tail": {
      const query = parseLogQuery(params, now);
      return tailResponse(reader, partitions, query.filters, request.headers.get("last-event-id"));
    }
    case "/groups": {
      onlyParams(params, ["since", "limit"]);
      const groups = await reader.groups(sinceOf(params, now, 7 * DAY), limitOf(params, 50, 200));
      return jsonResponse({
        groups: groups.map((group) => ({
          code: group.code,
          function: group.route,
          shape: group.shape,
          count: group.count,
          firstSeen: new Date(group.firstSeen).toISOString(),
          lastSeen: new Date(group.lastSeen).toISOString(),
          sample: group.sample,
        })),
      });
    }
    case "/metrics": {
      onlyParams(params, ["window"]);
      const window = (params.get("window") ?? "1h") as MetricsWindow;
      if (!Object.hasOwn(METRICS_WINDOWS, window)) {
        throw validationFailed([{ path: "query.window", message: "must be 1h, 24h or 7d" }]);
      }
      return jsonResponse(await metricsOf(reader, window, now));
    }
    case "/cron": {
      onlyParams(params, ["since"]);
      const since = sinceOf(params, now, DAY);
      const rows = await reader.services("cron", since);
      return jsonResponse({
        since: new Date(since).toISOString(),
        jobs: cronView(rows, deps.crons, pathOf),
      });
    }
    case "/queues": {
      onlyParams(params, ["since"]);
      const since = sinceOf(params, now, DAY);
      const rows = await reader.services("queue", since);
      return jsonResponse({
        since: new Date(since).toISOString(),
        queues: queueView(rows, deps.queues, pathOf),
      });
    }
    default: {
      onlyParams(params, []);
      const requestId = sub.slice(1);
      if (!/^[A-Za-z0-9-]{1,64}$/.test(requestId))
        throw new SvcError("NOT_FOUND", "No such record.");
      const record = await reader.get(requestId);
      if (record === null)
        throw new SvcError("NOT_FOUND", "No such record (it may have been pruned).");
      return jsonResponse({ record });
    }
  }
}
