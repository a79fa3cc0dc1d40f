import type { PublishedRoutes } from "./contract/published.ts";
import type { RouteSpec } from "./contract/route.ts";
import { type RoutesOpenApiDocument, routesOpenApi } from "./openapi.ts";

/** What sets one admin document apart: its title and description. */
export interface AdminOpenApiText {
  title: string;
  description: string;
}

/**
 * The OpenAPI 3.1 document of admin route groups as one app serves them:
 * only the routes that exist here, the admin token as the bearer scheme
 * (every route may answer `401 UNAUTHENTICATED`), the app's origin as the
 * server. `GET /_svc/admin/admin-openapi.json` (every group) and
 * `GET /_svc/admin/auth/openapi.json` (the auth group) are both this.
 *
 * @example
 * ```ts
 * const document = adminOpenApi([{ groups: SVC_ADMIN_GROUPS }], url.origin, {
 *   title: "svc admin API",
 *   description: "Every route under /_svc/admin/.",
 * });
 * ```
 */
export function adminOpenApi(
  published: readonly PublishedRoutes[],
  origin: string,
  text: AdminOpenApiText,
): RoutesOpenApiDocument {
  const served = new Set<RouteSpec>();
  for (const { groups, include } of published)
    for (const group of groups)
      for (const spec of Object.values(group.routes))
        if (include === undefined || include(spec)) served.add(spec);
  return routesOpenApi(
    published.flatMap(({ groups }) => groups),
    {
      ...text,
      version: "1",
      servers: [{ url: origin }],
      bearer: {
        name: "adminToken",
        description:
          "SVC_ADMIN_TOKEN, or one of the named admin tokens (its name is the operator).",
      },
      always: ["UNAUTHENTICATED"],
      include: (spec) => served.has(spec),
    },
  );
}
