import { SvcError } from "../errors/svc-error.ts";
import { problemResponse } from "../http/problem-response.ts";
import { jsonResponse } from "../http/responses.ts";
import { isRawBody, isValidatorAnswer, type RouteSpec, type RouteTable } from "./contract/route.ts";
import type { RouteImplementation } from "./implement.ts";
import { PathRouter } from "./path-router.ts";
import { DEFAULT_ROUTE_BODY_BYTES, readRouteBody } from "./read-body.ts";
import { readQuery } from "./read-query.ts";

/** What the audit hook learns about the action it opens a record for. */
export interface AuditOpening<Ctx> {
  /** The route's name in its table. */
  name: string;
  /** The declared audit action (`user.ban`). */
  action: string;
  params: Readonly<Record<string, string>>;
  ctx: Ctx;
}

/** Options of {@link serveRoutes}. */
export interface ServeRoutesOptions<Ctx, Audit> {
  /** Largest JSON body. @default 64 KiB */
  maxBodyBytes?: number;
  /** Whether a capability is on for this request; a route whose capability is off does not exist (404). */
  capability?: (name: string, ctx: Ctx) => boolean;
  /**
   * The audit trail: a record is opened for a route that declares an action
   * before its input is read, and closed with the outcome (the error, mapped)
   * after its handler, so refused attempts are recorded too.
   */
  audit?: {
    open(opening: AuditOpening<Ctx>): Audit;
    close(audit: Audit, error?: unknown): Promise<void>;
  };
  /** Turns what a handler threw (a library's own error) into an `SvcError`; others answer 500. */
  mapError?: (thrown: unknown) => unknown;
}

/** A route group served: answers a request whose path, relative to the group's prefix, is given. */
export interface RouteServer<Ctx> {
  handle(request: Request, call: { path: string; ctx: Ctx }): Promise<Response>;
}

interface Routed {
  name: string;
  spec: RouteSpec;
  handler: (call: Record<string, unknown>) => Promise<unknown>;
}

/**
 * Serves an implemented route group: matches the path through svc's one
 * {@link PathRouter} (404 for an unknown path or a route whose capability is
 * off, 405 with `Allow` for a known path on another method), reads the query
 * and body through the declared validators (`VALIDATION_FAILED` with
 * `query.*` / `body.*` paths, `413` past the body cap), opens and closes the
 * audit record of an action, calls the handler and writes its answer as
 * JSON with the declared status. Every failure is answered as problem
 * details; nothing throws.
 *
 * @example
 * ```ts
 * const server = serveRoutes(implementation, { capability: (name, ctx) => ctx.capabilities[name] });
 * return server.handle(request, { path: "users/u1/ban", ctx });
 * ```
 */
export function serveRoutes<Routes extends RouteTable, Ctx, Audit>(
  implementation: RouteImplementation<Routes, Ctx, Audit>,
  options: ServeRoutesOptions<Ctx, Audit> = {},
): RouteServer<Ctx> {
  const router = new PathRouter<Routed>();
  const handlers = implementation.handlers as unknown as Record<string, Routed["handler"]>;
  for (const [name, spec] of Object.entries(implementation.group.routes)) {
    router.add(spec.method, spec.path, { name, spec, handler: handlers[name]! });
  }
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_ROUTE_BODY_BYTES;
  const mapError = options.mapError ?? ((thrown: unknown) => thrown);

  const run = async (
    routed: Routed,
    params: Record<string, string>,
    request: Request,
    url: URL,
    ctx: Ctx,
    audit: Audit | undefined,
  ) => {
    const { spec } = routed;
    const query = readQuery(url, spec.query);
    const body =
      spec.body === undefined || isRawBody(spec.body)
        ? undefined
        : await readRouteBody(request, spec.body, maxBodyBytes);
    const answer = await routed.handler({ params, query, body, request, url, ctx, audit });
    if (!isValidatorAnswer(spec.answer) && spec.answer.kind === "file") return answer as Response;
    return jsonResponse(answer, { status: spec.status ?? 200 });
  };

  return {
    async handle(request, { path, ctx }) {
      try {
        const capability = options.capability;
        const match = router.match(
          request.method,
          path,
          capability === undefined
            ? undefined
            : ({ spec }) => spec.requires === undefined || capability(spec.requires, ctx),
        );
        if (match.kind === "none") throw new SvcError("NOT_FOUND", "Not found.");
        if (match.kind === "method") {
          const allow = match.allow.join(", ");
          throw new SvcError("METHOD_NOT_ALLOWED", `This route accepts ${allow}.`, {
            headers: { allow },
          });
        }
        const { value: routed, params } = match;
        const url = new URL(request.url);
        const action = routed.spec.audit;
        const audit =
          action === undefined || options.audit === undefined
            ? undefined
            : options.audit.open({ name: routed.name, action, params, ctx });
        try {
          const response = await run(routed, params, request, url, ctx, audit);
          if (audit !== undefined) await options.audit?.close(audit);
          return response;
        } catch (error) {
          const mapped = mapError(error);
          if (audit !== undefined) await options.audit?.close(audit, mapped);
          throw mapped;
        }
      } catch (error) {
        return problemResponse(error, { request });
      }
    },
  };
}
