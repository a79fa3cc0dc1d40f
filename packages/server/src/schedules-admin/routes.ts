import type { Outcome } from "../errors/outcome.ts";
import { deserializeError, SvcError } from "../errors/svc-error.ts";
import { endpointStub } from "../model/endpoint-stub.ts";
import { checkShardKey } from "../model/shard-key.ts";
import { implement } from "../routes/implement.ts";
import { type RouteServer, serveRoutes } from "../routes/serve.ts";
import type { ScheduledEndpoint } from "../scheduler/endpoint.ts";
import { DEFAULT_JOB_PAGE, MAX_CANCEL_IDS, schedulesAdminRoutes } from "./contract.ts";

/** What the schedules routes need from the worker. */
export interface SchedulesContext {
  env: unknown;
  /** The shard namespace of a request's `env`. */
  namespace(env: unknown): DurableObjectNamespace;
}

function shardOf(ctx: SchedulesContext, key: string): ScheduledEndpoint {
  // A key with control characters is refused: svc's own objects (names starting with NUL) stay out of reach.
  return endpointStub<ScheduledEndpoint>(ctx.namespace(ctx.env), checkShardKey(key));
}

function unwrap<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw deserializeError(outcome.error);
  return outcome.value;
}

const implementation = implement(schedulesAdminRoutes)
  .context<SchedulesContext>()
  .handlers({
    async listSchedules({ params, query, ctx }) {
      const filter = {
        ...(query.state === undefined ? {} : { state: query.state }),
        ...(query.function === undefined ? {} : { function: query.function }),
        ...(query.user === undefined ? {} : { userId: query.user }),
      };
      const page = await shardOf(ctx, params.key).scheduledList(
        filter,
        query.cursor ?? null,
        query.limit ?? DEFAULT_JOB_PAGE,
      );
      return unwrap(page);
    },
    async cancelSchedules({ params, body, ctx }) {
      if (body.ids !== undefined && body.ids.length > MAX_CANCEL_IDS)
        throw new SvcError("BAD_REQUEST", `Cancel at most ${MAX_CANCEL_IDS} ids at once.`);
      const selection = {
        ...(body.ids === undefined ? {} : { ids: body.ids }),
        ...(body.function === undefined ? {} : { function: body.function }),
        ...(body.user === undefined ? {} : { userId: body.user }),
        ...(body.all === undefined ? {} : { all: body.all }),
      };
      return { canceled: unwrap(await shardOf(ctx, params.key).scheduledCancel(selection)) };
    },
  });

const server: RouteServer<SchedulesContext> = serveRoutes(implementation);

/** Where the schedules routes are mounted. */
export const SCHEDULES_ADMIN_PREFIX = schedulesAdminRoutes.prefix;

/**
 * Answers a request under `/_svc/admin/schedules/` (the admin gate has
 * already admitted it): the declared routes of {@link schedulesAdminRoutes}.
 *
 * @example await handleSchedulesAdmin(request, "shards/room-1", { env, namespace })
 */
export function handleSchedulesAdmin(
  request: Request,
  path: string,
  ctx: SchedulesContext,
): Promise<Response> {
  return server.handle(request, { path, ctx });
}
