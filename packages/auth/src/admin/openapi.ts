import { routesOpenApi } from "@svc/server/routes";
import { generateAuthApiOpenApi } from "./auth-api-openapi.ts";
import { isCapabilityOn } from "./capabilities.ts";
import { ADMIN_AUTH_ROUTES } from "./contract/index.ts";
import type { AdminAnswer, AdminCall } from "./handler.ts";

/**
 * `GET openapi.json`: the OpenAPI 3.1 document of this admin API, generated
 * from the route declarations, with the routes whose capability is off left
 * out (they answer 404 here), the admin token as the bearer scheme and every
 * problem-details answer each route can give.
 *
 * @example
 * ```ts
 * GET /_svc/admin/auth/openapi.json → { openapi: "3.1.0", paths: { "/_svc/admin/auth/users": … } }
 * ```
 */
export async function openApi(call: AdminCall<"openApi">): Promise<AdminAnswer<"openApi">> {
  const { capabilities } = call.ctx.environment;
  return routesOpenApi([ADMIN_AUTH_ROUTES], {
    title: "svc admin API: users and organizations",
    version: "1",
    description:
      "The admin API of @svc/auth under /_svc/admin/auth/ (docs/admin-api.md). Every route needs " +
      "the admin token; answers are JSON with cache-control: no-store, errors RFC 9457 problem details.",
    servers: [{ url: call.url.origin }],
    bearer: {
      name: "adminToken",
      description: "SVC_ADMIN_TOKEN, or one of the named admin tokens (its name is the operator).",
    },
    always: ["UNAUTHENTICATED"],
    include: (spec) => spec.requires === undefined || isCapabilityOn(capabilities, spec.requires),
  });
}

/**
 * `GET api-openapi.json`: the OpenAPI document of better-auth's own
 * `/api/auth/*` for the enabled plugins, as better-auth's generator writes it
 * and corrected where it is wrong (see `auth-api-openapi.ts`).
 *
 * @example
 * ```ts
 * GET /_svc/admin/auth/api-openapi.json → { openapi: "3.1.1", paths: { "/api/auth/sign-in/email": … } }
 * ```
 */
export async function authApiOpenApi(
  call: AdminCall<"authApiOpenApi">,
): Promise<AdminAnswer<"authApiOpenApi">> {
  return generateAuthApiOpenApi(call.ctx.environment.auth, call.url.origin);
}
