import { v } from "../../values/index.ts";
import { route, routeGroup } from "./route.ts";

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
    }),
  },
});
