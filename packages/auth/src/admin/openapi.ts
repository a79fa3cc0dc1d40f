import { adminOpenApi, type PublishedRoutes } from "@svc/server/routes";
import { generateAuthApiOpenApi } from "./auth-api-openapi.ts";
import { isCapabilityOn } from "./capabilities.ts";
import { ADMIN_AUTH_ROUTES } from "./contract/index.ts";
import type { AdminEnvironment } from "./environment.ts";
import type { AdminAnswer, AdminCall } from "./handler.ts";

/**
 * The auth group as this app serves it: the routes whose capability (a
 * plugin, a feature) is off answer 404 and are left out. What
 * `createAuthAdmin(...).routes()` hands `createWorker` for the whole admin
 * document, and what `GET openapi.json` documents.
 *
 * @example
 * ```ts
 * const { groups, include } = publishedAuthRoutes(environment);
 * ```
 */
export function publishedAuthRoutes(environment: AdminEnvironment): PublishedRoutes {
  const { capabilities } = environment;
  return {
    groups: [ADMIN_AUTH_ROUTES],
    include: (spec) => spec.requires === undefined || isCapabilityOn(capabilities, spec.requires),
  };
}

/**
 * `GET openapi.json`: the OpenAPI 3.1 document of this admin API, generated
 * from the route declarations, with the routes whose capability is off left
 * out (they answer 404 here), the admin token as the bearer scheme and every
 * problem-details answer each route can give. The whole admin API's
 * document is `GET /_svc/admin/admin-openapi.json`.
 *
 * @example
 * ```ts
 * GET /_svc/admin/auth/openapi.json → { openapi: "3.1.0", paths: { "/_svc/admin/auth/users": … } }
 * ```
 */
export async function openApi(call: AdminCall<"openApi">): Promise<AdminAnswer<"openApi">> {
  return adminOpenApi([publishedAuthRoutes(call.ctx.environment)], call.url.origin, {
    title: "svc admin API: users and organizations",
    description:
      "The admin API of @svc/auth under /_svc/admin/auth/ (docs/admin-api.md). Every route needs " +
      "the admin token; answers are JSON with cache-control: no-store, errors RFC 9457 problem details.",
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
