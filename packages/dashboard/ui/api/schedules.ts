import {
  createRouteClient,
  type RouteQuery,
  type RouteTransport,
  type schedulesAdminRoutes,
} from "@svc/server/routes/contract";
import { SCHEDULES_ADMIN_MANIFEST } from "./routes.generated.ts";

/** The job list's filters, as the API names them. */
export type ScheduleQuery = RouteQuery<(typeof schedulesAdminRoutes.routes)["listSchedules"]>;
/** The filters and page of shards of a list across shards. */
export type AcrossShardsQuery = RouteQuery<
  (typeof schedulesAdminRoutes.routes)["listAllSchedules"]
>;
/** What a cancel selects, by filter (no ids): one shard's or across shards. */
export interface CancelFilter {
  function?: string;
  user?: string;
  all?: boolean;
}

/**
 * Scheduled jobs (`/_svc/admin/schedules/`), one shard's or across the
 * registry's shards, derived from their declarations (`schedulesAdminRoutes`)
 * through the generated manifest.
 *
 * @example await schedulesApi(transport).list("room-1", { state: "failed" });
 */
export function schedulesApi(transport: RouteTransport) {
  const routes = createRouteClient(SCHEDULES_ADMIN_MANIFEST, transport);
  return {
    list: (key: string, query: ScheduleQuery, signal?: AbortSignal) =>
      routes.listSchedules({ params: { key }, query, signal }),
    cancel: (key: string, body: CancelFilter & { ids?: string[] }) =>
      routes.cancelSchedules({ params: { key }, body }),
    listAcross: (query: AcrossShardsQuery, signal?: AbortSignal) =>
      routes.listAllSchedules({ query, signal }),
    /** Cancels in every shard the registry knows, page of shards after page; answers the total. */
    async cancelAcross(body: CancelFilter & { search?: string }): Promise<number> {
      let canceled = 0;
      let cursor: string | null = null;
      do {
        const page = await routes.cancelAllSchedules({
          body: cursor === null ? body : { ...body, cursor },
        });
        canceled += page.canceled;
        cursor = page.nextCursor;
      } while (cursor !== null);
      return canceled;
    },
  };
}

/** {@link schedulesApi}'s shape. */
export type SchedulesApi = ReturnType<typeof schedulesApi>;
