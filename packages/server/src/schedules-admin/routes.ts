import type { Outcome } from "../errors/outcome.ts";
import { deserializeError, SvcError } from "../errors/svc-error.ts";
import type { DataAuditSink } from "../model/data-audit.ts";
import { endpointStub } from "../model/endpoint-stub.ts";
import { checkShardKey } from "../model/shard-key.ts";
import { implement } from "../routes/implement.ts";
import { type RouteServer, serveRoutes } from "../routes/serve.ts";
import type { JobFilter, JobSelection } from "../scheduler/admin-view.ts";
import type { ScheduledEndpoint } from "../scheduler/endpoint.ts";
import type { JobState } from "../scheduler/job-view.ts";
import {
  cancelAcrossShards,
  listAcrossShards,
  type ShardFanOut,
  type ShardRange,
} from "./across-shards.ts";
import { type CancelAudit, closeCancelAudit, selectionText } from "./audit.ts";
import {
  DEFAULT_JOB_PAGE,
  DEFAULT_JOBS_PER_SHARD,
  DEFAULT_SHARDS_PAGE,
  MAX_CANCEL_IDS,
  schedulesAdminRoutes,
} from "./contract.ts";

/** What the schedules routes need from the worker. */
export interface SchedulesContext {
  env: unknown;
  /** The shard namespace of a request's `env`. */
  namespace(env: unknown): DurableObjectNamespace;
  /** The admin token's name (who cancels). */
  operator: string;
  /** Where cancels are recorded: `createWorker`'s audit sink. */
  audit: DataAuditSink;
  /** Asks one page of the registry's shards (lists and cancels across shards). */
  fanOut: ShardFanOut;
}

function shardOf(ctx: SchedulesContext, key: string): ScheduledEndpoint {
  // A key with control characters is refused: svc's own objects (names starting with NUL) stay out of reach.
  return endpointStub<ScheduledEndpoint>(ctx.namespace(ctx.env), checkShardKey(key));
}

function unwrap<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw deserializeError(outcome.error);
  return outcome.value;
}

/** The filter a list's query names. */
function filterOf(query: { state?: JobState; function?: string; user?: string }): JobFilter {
  return {
    ...(query.state === undefined ? {} : { state: query.state }),
    ...(query.function === undefined ? {} : { function: query.function }),
    ...(query.user === undefined ? {} : { userId: query.user }),
  };
}

/** The jobs a cancel's body names. */
function selectionOf(body: {
  ids?: string[];
  function?: string;
  user?: string;
  all?: boolean;
}): JobSelection {
  return {
    ...(body.ids === undefined ? {} : { ids: body.ids }),
    ...(body.function === undefined ? {} : { function: body.function }),
    ...(body.user === undefined ? {} : { userId: body.user }),
    ...(body.all === undefined ? {} : { all: body.all }),
  };
}

/** The page of registry shards a call across shards covers. */
function rangeOf(call: { search?: string; cursor?: string; shards?: number }): ShardRange {
  return {
    search: call.search ?? null,
    cursor: call.cursor ?? null,
    limit: call.shards ?? DEFAULT_SHARDS_PAGE,
  };
}

const implementation = implement(schedulesAdminRoutes)
  .context<SchedulesContext, CancelAudit>()
  .handlers({
    async listSchedules({ params, query, ctx }) {
      const page = await shardOf(ctx, params.key).scheduledList(
        filterOf(query),
        query.cursor ?? null,
        query.limit ?? DEFAULT_JOB_PAGE,
      );
      return unwrap(page);
    },
    async cancelSchedules({ params, body, ctx, audit }) {
      if (body.ids !== undefined && body.ids.length > MAX_CANCEL_IDS)
        throw new SvcError("BAD_REQUEST", `Cancel at most ${MAX_CANCEL_IDS} ids at once.`);
      const selection = selectionOf(body);
      const canceled = unwrap(await shardOf(ctx, params.key).scheduledCancel(selection));
      audit.detail = `canceled ${canceled} pending jobs: ${selectionText(selection)}`;
      return { canceled };
    },
    listAllSchedules({ query, ctx }) {
      return listAcrossShards(
        ctx.fanOut,
        ctx.env,
        filterOf(query),
        rangeOf(query),
        query.limit ?? DEFAULT_JOBS_PER_SHARD,
      );
    },
    async cancelAllSchedules({ body, ctx, audit }) {
      const selection = selectionOf(body);
      // Refused once here, rather than by every shard of the page.
      if (selection.function === undefined && selection.userId === undefined && !selection.all)
        throw new SvcError("BAD_REQUEST", "Name the jobs to cancel: function, user or all.");
      const range = rangeOf(body);
      const done = await cancelAcrossShards(ctx.fanOut, ctx.env, selection, range);
      const perShard = done.shards.map(({ shard, canceled }) => `${shard}: ${canceled}`);
      const failed = done.errors.map(({ shard, code }) => `${shard}: ${code}`);
      audit.detail = [
        `canceled ${done.canceled} pending jobs across shards: ${selectionText(selection)}`,
        `shards${range.search === null ? "" : ` matching ${range.search}`} ${range.cursor === null ? "from the start" : `after cursor ${range.cursor}`}`,
        perShard.length === 0 ? "" : `per shard ${perShard.join(", ")}`,
        failed.length === 0 ? "" : `failed ${failed.join(", ")}`,
      ]
        .filter((part) => part !== "")
        .join("; ");
      return done;
    },
  });

const server: RouteServer<SchedulesContext> = serveRoutes(implementation, {
  audit: {
    open: ({ params, ctx }) => ({
      operator: ctx.operator,
      shard: params.key ?? "*",
      detail: null,
      sink: ctx.audit,
    }),
    close: closeCancelAudit,
  },
});

/** Where the schedules routes are mounted. */
export const SCHEDULES_ADMIN_PREFIX = schedulesAdminRoutes.prefix;

/**
 * Answers a request under `/_svc/admin/schedules/` (the admin gate has
 * already admitted it): the declared routes of {@link schedulesAdminRoutes}.
 *
 * A cancel is recorded as `schedule.cancel` by `operator` in the audit trail.
 *
 * @example await handleSchedulesAdmin(request, "shards/room-1", { env, namespace, operator, audit })
 */
export function handleSchedulesAdmin(
  request: Request,
  path: string,
  ctx: SchedulesContext,
): Promise<Response> {
  return server.handle(request, { path, ctx });
}
