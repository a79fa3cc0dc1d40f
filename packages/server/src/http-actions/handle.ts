import { problemResponse } from "../errors/problem.ts";
import { SvcError } from "../errors/svc-error.ts";
import { noteCall, requestIdOfCall } from "../observability/call-scope.ts";
import { callerOf } from "../observability/caller.ts";
import { authContext } from "../procedures/context.ts";
import { runMiddleware } from "../procedures/middleware.ts";
import type { FunctionRegistry } from "../procedures/procedure.ts";
import { argsFromQuery } from "../rest/query-args.ts";
import type { ShardEndpoint } from "../shard/call.ts";
import { validateArgs } from "../shard/dispatch.ts";
import { withDispatchSpan } from "../telemetry.ts";
import { readJsonArgs } from "../worker/body.ts";
import { refuseCrossSiteCookies } from "../worker/cross-site.ts";
import type { IdentityResolver } from "../worker/invoke.ts";
import { serverCalls } from "../worker/server-calls.ts";
import type { HttpAction, HttpActionCtx } from "./action.ts";
import type { CorsPolicy } from "./cors.ts";
import type { HttpRoute, HttpRouter } from "./router.ts";

/** What serving HTTP actions needs from `createWorker`. */
export interface HttpActionDeps<Env> {
  router: HttpRouter;
  functions: FunctionRegistry;
  shard(env: Env, shardKey: string): ShardEndpoint;
  resolveIdentity: IdentityResolver<Env>;
  maxBodyBytes: number;
  timeoutMs: number;
}

const ARGS_IN_QUERY = new Set(["GET", "HEAD", "DELETE"]);
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

async function argsOf(action: HttpAction, request: Request, url: URL, maxBodyBytes: number) {
  if (action.args === undefined) return {};
  if (ARGS_IN_QUERY.has(request.method)) {
    return validateArgs(action.args, argsFromQuery(url.searchParams, action.args.shape));
  }
  const body = await readJsonArgs(
    request,
    maxBodyBytes,
    "This route takes a JSON body (content-type: application/json).",
  );
  return validateArgs(action.args, body);
}

function preflight(policy: CorsPolicy | undefined, request: Request, allow: readonly string[]) {
  const origin = request.headers.get("origin");
  if (policy === undefined || origin === null) {
    throw new SvcError("METHOD_NOT_ALLOWED", "OPTIONS is not allowed here.", {
      headers: { allow: allow.join(", ") },
    });
  }
  if (!policy.allows(origin))
    throw new SvcError("FORBIDDEN", "This origin may not call this route.");
  return new Response(null, { status: 204, headers: policy.preflightHeaders(origin, allow) });
}

async function run<Env>(
  deps: HttpActionDeps<Env>,
  route: HttpRoute,
  params: Record<string, string>,
  request: Request,
  env: Env,
  url: URL,
): Promise<Response> {
  const policy = deps.router.corsPolicy;
  const origin = request.headers.get("origin");
  // Unsafe methods with cookies from another site are CSRF, unless CORS trusts that origin with credentials.
  const trustedOrigin = origin !== null && policy?.credentials === true && policy.allows(origin);
  if (!SAFE_METHODS.has(request.method) && !trustedOrigin) refuseCrossSiteCookies(request, url);
  const { action } = route;
  const args = await argsOf(action, request, url, deps.maxBodyBytes);
  const identity = await deps.resolveIdentity(request, env);
  noteCall({ caller: callerOf(identity) });
  const requestId = requestIdOfCall();
  const calls = serverCalls(
    { functions: deps.functions, shard: (key) => deps.shard(env, key), timeoutMs: deps.timeoutMs },
    { identity, service: null, transport: "http", requestId },
  );
  const ctx: HttpActionCtx<Record<string, unknown>> = {
    ...calls,
    auth: authContext(identity, null),
    meta: {
      path: `${route.method} ${route.pattern}`,
      method: request.method,
      route: route.pattern,
      transport: "http",
      requestId,
    },
    params,
    args,
    request,
  };
  const response = await runMiddleware(action.middleware, ctx as never, (final) =>
    Promise.resolve((action.handler as (c: unknown, r: Request) => unknown)(final, request)),
  );
  if (!(response instanceof Response)) {
    throw new Error(`svc: HTTP action ${route.method} ${route.pattern} did not return a Response`);
  }
  return response;
}

/**
 * Serves the app's HTTP actions: answers a routed path (405 with `Allow` for
 * a routed path on another method, CORS preflights when the router has a
 * policy), or `undefined` for a path no route matches so the worker's own
 * `fetch` gets it. Errors are problem details, as on every svc route.
 */
export async function handleHttpAction<Env>(
  deps: HttpActionDeps<Env>,
  request: Request,
  env: Env,
  url: URL,
): Promise<Response | undefined> {
  const match = deps.router.match(request.method, url.pathname);
  if (match.kind === "none") return undefined;
  const policy = deps.router.corsPolicy;
  const origin = request.headers.get("origin");
  const withCors = (response: Response) =>
    policy !== undefined && origin !== null && policy.allows(origin)
      ? policy.decorate(response, origin)
      : response;
  if (match.kind === "method") {
    try {
      if (request.method === "OPTIONS") return preflight(policy, request, match.allow);
      throw new SvcError("METHOD_NOT_ALLOWED", `${request.method} is not allowed here.`, {
        headers: { allow: match.allow.join(", ") },
      });
    } catch (error) {
      return problemResponse(error);
    }
  }
  const { route, params } = match;
  noteCall({ entry: "http", route: `${route.method} ${route.pattern}` });
  const response = await withDispatchSpan(
    {
      urlPath: url.pathname,
      route: `${route.method} ${route.pattern}`,
      method: request.method,
      transport: "http",
    },
    async () => {
      try {
        return await run(deps, route, params, request, env, url);
      } catch (error) {
        return problemResponse(error);
      }
    },
  );
  const answered = request.method === "HEAD" ? new Response(null, response) : response;
  return withCors(answered);
}
