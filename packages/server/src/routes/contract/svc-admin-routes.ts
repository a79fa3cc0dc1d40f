import { v } from "../../values/index.ts";
import { route, routeGroup } from "./route.ts";

/** The capability of `GET /_svc/admin/openapi`: on when `createWorker({ openApiSpec })` is set. */
export const REST_OPENAPI_CAPABILITY = "rest-openapi";

/**
 * The admin routes `createWorker` answers itself, under `/_svc/admin/`
 * (the auth, data and logs surfaces have their own groups): declared so the
 * dashboard calls them through a derived client like every other admin route.
 *
 * @example
 * ```ts
 * const svcAdmin = createRouteClient(SVC_ADMIN_ROUTES, transport);
 * const document = await svcAdmin.restOpenApi();
 * ```
 */
export const SVC_ADMIN_ROUTES = routeGroup({
  prefix: "/_svc/admin/",
  tag: "svc",
  routes: {
    restOpenApi: route({
      method: "GET",
      path: "openapi",
      summary: "The app's public REST OpenAPI document (`openApiSpec`); 404 when none was given",
      answer: v.record(v.any()).describe("An OpenAPI 3.1 document."),
      errors: ["NOT_FOUND"],
      requires: REST_OPENAPI_CAPABILITY,
    }),
    adminOpenApi: route({
      method: "GET",
      path: "admin-openapi.json",
      summary: "The OpenAPI 3.1 document of the whole admin API (every group served here)",
      description:
        "Every admin route this worker serves — auth, data, logs, schedules, files and these — from the one route contract; routes whose capability is off are left out.",
      answer: v.record(v.any()).describe("An OpenAPI 3.1 document."),
    }),
  },
});
