import type {
  RouteAnswer,
  RouteBody,
  RouteGroup,
  RouteParams,
  RouteQuery,
  RouteSpec,
  RouteTable,
} from "./contract/route.ts";

type Empty = Record<never, never>;

/**
 * What a route's handler gets: its input read and checked against the
 * declaration (typed from it), the raw request, the context the mounting
 * code gives (`Ctx`), and, for a route that declares an audit action, the
 * audit record the router opened (`Audit`).
 */
export type RouteCall<Spec extends RouteSpec, Ctx, Audit> = {
  params: RouteParams<Spec>;
  query: RouteQuery<Spec>;
  body: RouteBody<Spec>;
  request: Request;
  url: URL;
  ctx: Ctx;
} & (Spec extends { audit: string } ? { audit: Audit } : Empty);

/**
 * The handler of one declared route: answers the declared answer's value
 * (the router writes it as JSON with the declared status), or a `Response`
 * for a file answer.
 *
 * @example
 * ```ts
 * const banUser: RouteHandler<typeof routes.banUser, AdminContext, AuditScope> = async ({ params, body, audit }) => ({
 *   user: await ban(params.id, body.reason, audit),
 * });
 * ```
 */
export type RouteHandler<Spec extends RouteSpec, Ctx, Audit = never> = (
  call: RouteCall<Spec, Ctx, Audit>,
) => Promise<RouteAnswer<Spec>>;

/** A handler for every route of a table; a missing or ill-typed one does not compile. */
export type RouteHandlers<Routes extends RouteTable, Ctx, Audit = never> = {
  readonly [Name in keyof Routes]: RouteHandler<Routes[Name], Ctx, Audit>;
};

/** A route group with its handlers: what `serveRoutes` serves. */
export interface RouteImplementation<Routes extends RouteTable, Ctx, Audit> {
  readonly group: RouteGroup<Routes>;
  readonly handlers: RouteHandlers<Routes, Ctx, Audit>;
}

/**
 * Implements a route group, contract first (as oRPC's `implement`): the
 * contract comes from a browser-safe module, the handlers from the server,
 * and the compiler holds them together.
 *
 * @example
 * ```ts
 * const implementation = implement(adminAuthRoutes)
 *   .context<AdminContext, AuditScope>()
 *   .handlers({ capabilities: async ({ ctx }) => ctx.environment.capabilities, ... });
 * ```
 */
export function implement<Routes extends RouteTable>(group: RouteGroup<Routes>) {
  return {
    /** Names the context every handler gets and the audit record action routes get. */
    context<Ctx, Audit = never>() {
      return {
        /** One handler per route of the group. */
        handlers(
          handlers: RouteHandlers<Routes, Ctx, Audit>,
        ): RouteImplementation<Routes, Ctx, Audit> {
          for (const name of Object.keys(group.routes)) {
            if (typeof (handlers as Record<string, unknown>)[name] !== "function")
              throw new Error(`svc: route ${name} has no handler`);
          }
          return Object.freeze({ group, handlers });
        },
      };
    },
  };
}
