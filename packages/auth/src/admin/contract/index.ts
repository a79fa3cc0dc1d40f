/**
 * `@svc/auth/admin-contract`: the admin API (`/_svc/admin/auth/*`) as
 * declarations and the shapes it answers. It imports nothing but
 * `@svc/server/routes/contract` (`v` and the route declarations), so the
 * dashboard's browser bundle imports it to get its typed client.
 *
 * @example
 * ```ts
 * import { ADMIN_AUTH_ROUTES, type AdminUser } from "@svc/auth/admin-contract";
 * import { createRouteClient } from "@svc/server/routes/contract";
 * const admin = createRouteClient(ADMIN_AUTH_ROUTES, transport);
 * const { user }: { user: AdminUser } = await admin.banUser({ params: { id: "u1" }, body: {} });
 * ```
 * @see ../../../../../docs/admin-api.md
 * @packageDocumentation
 */
export * from "./answers.ts";
export { apiKeyQuery, newApiKey } from "./api-key-routes.ts";
export * from "./audit-targets.ts";
export * from "./bodies.ts";
export * from "./constants.ts";
export * from "./csv.ts";
export * from "./queries.ts";
export { ADMIN_AUTH_ROUTES, type AdminAuthRoutes } from "./routes.ts";
export * from "./shapes.ts";
export * from "./user-fields.ts";
