/**
 * `@svc/server/routes`: one contract per route. A route is declared once
 * (`route`, from the browser-safe `@svc/server/routes/contract`, re-exported
 * here); the server implements the declarations (`implement`) and serves
 * them (`serveRoutes`) through svc's one path router; the OpenAPI document
 * (`routesOpenApi`), the docs table (`routesMarkdownTable`) and the typed
 * client (`createRouteClient`) are derived from the same declarations.
 *
 * @example
 * ```ts
 * import { implement, route, routeGroup, routesOpenApi, serveRoutes, v } from "@svc/server/routes";
 *
 * const notes = routeGroup({
 *   prefix: "/_svc/admin/notes/",
 *   tag: "notes",
 *   routes: {
 *     deleteNote: route({
 *       method: "DELETE",
 *       path: "notes/:id",
 *       summary: "Delete a note",
 *       answer: v.object({ deleted: v.literal(true) }),
 *       audit: "note.delete",
 *     }),
 *   },
 * });
 * const server = serveRoutes(
 *   implement(notes)
 *     .context<{ db: D1Database }, { detail?: string }>()
 *     .handlers({
 *       deleteNote: async ({ params, ctx, audit }) => {
 *         await ctx.db.prepare("DELETE FROM note WHERE id = ?").bind(params.id).run();
 *         audit.detail = `deleted ${params.id}`;
 *         return { deleted: true };
 *       },
 *     }),
 *   { audit: { open: () => ({}), close: async (record, error) => console.log(record, error) } },
 * );
 * const response = await server.handle(request, { path: "notes/n1", ctx: { db: env.DB } });
 * const document = routesOpenApi([notes], { title: "Notes admin", version: "1" });
 * ```
 * @packageDocumentation
 */
export { type AdminOpenApiText, adminOpenApi } from "../routes/admin-openapi.ts";
export { namedTypesBlock, routesMarkdownTable } from "../routes/docs-table.ts";
export { routeErrorCodes } from "../routes/error-codes.ts";
export {
  implement,
  type RouteCall,
  type RouteHandler,
  type RouteHandlers,
  type RouteImplementation,
} from "../routes/implement.ts";
export {
  type RoutesOpenApiDocument,
  type RoutesOpenApiOptions,
  routesOpenApi,
} from "../routes/openapi.ts";
export { type PathMatch, PathRouter } from "../routes/path-router.ts";
export { checkBody, DEFAULT_ROUTE_BODY_BYTES, readRouteBody } from "../routes/read-body.ts";
export { readQuery } from "../routes/read-query.ts";
export { schemaWithRefs } from "../routes/schema-walk.ts";
export {
  type AuditOpening,
  type RouteServer,
  type ServeRoutesOptions,
  serveRoutes,
} from "../routes/serve.ts";
export * from "./route-contract.ts";
