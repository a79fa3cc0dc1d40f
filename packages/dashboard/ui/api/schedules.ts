import {
  createRouteClient,
  type RouteQuery,
  type RouteTransport,
  type schedulesAdminRoutes,
} from "@svc/server/routes/contract";
import { SCHEDULES_ADMIN_MANIFEST } from "./routes.generated.ts";

/** The job list's filters, as the API names them. */
export type ScheduleQuery = RouteQuery<(typeof schedulesAdminRoutes.routes)["listSchedules"]>;

/**
 * A shard's scheduled jobs (`/_svc/admin/schedules/`), derived from their
 * declarations (`schedulesAdminRoutes`) through the generated manifest.
 *
 * @example await schedulesApi(transport).list("room-1", { state: "failed" });
 */
export function schedulesApi(transport: RouteTransport) {
  const routes = createRouteClient(SCHEDULES_ADMIN_MANIFEST, transport);
  return {
    list: (key: string, query: ScheduleQuery, signal?: AbortSignal) =>
      routes.listSchedules({ params: { key }, query, signal }),
    cancel: (
      key: string,
      body: { ids?: string[]; function?: string; user?: string; all?: boolean },
    ) => routes.cancelSchedules({ params: { key }, body }),
  };
}

/** {@link schedulesApi}'s shape. */
export type SchedulesApi = ReturnType<typeof schedulesApi>;
