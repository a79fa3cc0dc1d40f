/**
 * Every route of `/_svc/admin/auth/`, declared once: the server implements
 * them (`../routes.ts`), the dashboard calls them through the client derived
 * from them, the OpenAPI document (`GET openapi.json`) and the tables of
 * `docs/admin-api.md` are generated from them.
 *
 * @see ../../../../../docs/admin-api.md "Routes"
 */
import { route, routeGroup, v } from "@svc/server/routes/contract";
import { adminOverview, nextCursor } from "./answers.ts";
import { API_KEY_ROUTES } from "./api-key-routes.ts";
import { ORGANIZATION_ROUTES } from "./organization-routes.ts";
import { auditQuery, overviewQuery } from "./queries.ts";
import { auditEntry, capabilities } from "./shapes.ts";
import { USER_ROUTES } from "./user-routes.ts";

const openApiDocument = v.record(v.any()).describe("An OpenAPI 3.1 document.");

/**
 * The admin API of `@svc/auth` as a route group: prefix `/_svc/admin/auth/`,
 * OpenAPI tag `auth`, a route per name (the client's method and the
 * `operationId`).
 *
 * @example
 * ```ts
 * import { createRouteClient } from "@svc/server/routes/contract";
 * const admin = createRouteClient(ADMIN_AUTH_ROUTES, transport);
 * const { users } = await admin.listUsers({ query: { search: "ann" } });
 * ```
 */
export const ADMIN_AUTH_ROUTES = routeGroup({
  prefix: "/_svc/admin/auth/",
  tag: "auth",
  routes: {
    capabilities: route({
      method: "GET",
      path: "capabilities",
      summary: "Which surfaces apply: plugins, roles, editable fields, sign-in links",
      answer: capabilities,
    }),
    overview: route({
      method: "GET",
      path: "overview",
      summary: "Totals, sign-ups per UTC day and active users",
      query: overviewQuery,
      answer: adminOverview,
    }),
    ...USER_ROUTES,
    ...ORGANIZATION_ROUTES,
    ...API_KEY_ROUTES,
    listAudit: route({
      method: "GET",
      path: "audit",
      summary: "The audit trail, newest first",
      query: auditQuery,
      answer: v.object({ entries: v.array(auditEntry), nextCursor }),
    }),
    openApi: route({
      method: "GET",
      path: "openapi.json",
      summary: "This API's OpenAPI document (the routes enabled here)",
      answer: openApiDocument,
    }),
    authApiOpenApi: route({
      method: "GET",
      path: "api-openapi.json",
      summary: "The OpenAPI document of better-auth's `/api/auth/*` for the enabled plugins",
      answer: openApiDocument,
    }),
  },
});

/** The admin routes' table, by name. */
export type AdminAuthRoutes = typeof ADMIN_AUTH_ROUTES.routes;
