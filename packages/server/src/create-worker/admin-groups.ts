import { dataAdminRoutes } from "../data-admin/contract.ts";
import { studioGroup } from "../data-admin/studio/contract.ts";
import { logsAdminRoutes } from "../logs-admin/contract.ts";
import type { RouteGroup } from "../routes/contract/route.ts";
import { SVC_ADMIN_ROUTES } from "../routes/contract/svc-admin-routes.ts";
import { schedulesAdminRoutes } from "../schedules-admin/contract.ts";
import { filesAdminRoutes } from "../storage/admin-contract.ts";

/**
 * Every admin route group `createWorker` serves under `/_svc/admin/`: the
 * one table its admin OpenAPI document, the docs tables, the dashboard's
 * manifests and the CLI derive from (the auth group, `@svc/auth`'s, joins
 * it through `AuthAdminSurface.routes`). It imports declarations only, so
 * a browser bundle can hold it (`@svc/server/routes/contract`).
 *
 * @example
 * ```ts
 * for (const group of SVC_ADMIN_GROUPS) console.log(group.tag, group.prefix, Object.keys(group.routes));
 * ```
 */
export const SVC_ADMIN_GROUPS = [
  SVC_ADMIN_ROUTES,
  logsAdminRoutes,
  dataAdminRoutes,
  studioGroup,
  schedulesAdminRoutes,
  filesAdminRoutes,
] as const satisfies readonly RouteGroup[];
