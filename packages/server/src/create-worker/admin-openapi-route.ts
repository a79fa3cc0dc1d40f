import { BACKUPS_CAPABILITY } from "../data-admin/contract.ts";
import { SvcError } from "../errors/svc-error.ts";
import { jsonResponse } from "../http/responses.ts";
import { adminOpenApi } from "../routes/admin-openapi.ts";
import type { PublishedRoutes } from "../routes/contract/published.ts";
import { REST_OPENAPI_CAPABILITY } from "../routes/contract/svc-admin-routes.ts";
import type { AuthAdminSurface } from "../worker/extensions.ts";
import { SVC_ADMIN_GROUPS } from "./admin-groups.ts";

/** What decides which of `createWorker`'s own admin routes exist. */
export interface AdminSurfaces {
  /** `createWorker({ backups })` is set: the backup routes exist. */
  backups: boolean;
  /** `createWorker({ openApiSpec })` is set: `GET /_svc/admin/openapi` exists. */
  restOpenApi: boolean;
  authAdmin: AuthAdminSurface | undefined;
}

/**
 * `GET /_svc/admin/admin-openapi.json` (behind the admin gate): the OpenAPI
 * 3.1 document of every admin route this worker serves, from the one route
 * contract — `createWorker`'s own groups (`SVC_ADMIN_GROUPS`) with the
 * routes whose capability is off left out, and the auth group as
 * `authAdmin.routes()` publishes it.
 *
 * @example
 * ```ts
 * const response = await serveAdminOpenApi(request, url, { backups: true, restOpenApi: false, authAdmin });
 * ```
 */
export async function serveAdminOpenApi(
  request: Request,
  url: URL,
  surfaces: AdminSurfaces,
): Promise<Response> {
  if (request.method !== "GET")
    throw new SvcError("METHOD_NOT_ALLOWED", "GET only.", { headers: { allow: "GET" } });
  const on = new Set<string>([
    ...(surfaces.backups ? [BACKUPS_CAPABILITY] : []),
    ...(surfaces.restOpenApi ? [REST_OPENAPI_CAPABILITY] : []),
  ]);
  const published: PublishedRoutes[] = [
    {
      groups: SVC_ADMIN_GROUPS,
      include: (spec) => spec.requires === undefined || on.has(spec.requires),
    },
  ];
  const auth = await surfaces.authAdmin?.routes?.();
  if (auth !== undefined) published.push(auth);
  return jsonResponse(
    adminOpenApi(published, url.origin, {
      title: "svc admin API",
      description:
        "Every route under /_svc/admin/ this app serves (docs/admin-api.md), from svc's one route contract. " +
        "Every route needs the admin token; errors are RFC 9457 problem details.",
    }),
  );
}
