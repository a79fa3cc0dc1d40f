import { validateArgs } from "../dispatch/dispatch.ts";
import { SvcError } from "../errors/svc-error.ts";
import { readJsonArgs } from "../http/body.ts";
import { problemResponse } from "../http/problem-response.ts";
import { argsFromQuery } from "../http/query-args.ts";
import { authContext, type Identity } from "../model/identity.ts";
import { noteCall, requestIdOfCall } from "../observability/call-scope.ts";
import { runMiddleware } from "../procedures/middleware.ts";
import { throughDoor } from "../worker/admission.ts";
import type { WorkerRuntime } from "../worker/runtime.ts";
import { serverCalls } from "../worker/server-calls.ts";
import type { HttpAction, HttpActionCtx } from "./action.ts";
import type { CorsPolicy } from "./cors.ts";
import type { HttpRoute, HttpRouter } from "./router.ts";

const ARGS_IN_QUERY = new Set(["GET", "HEAD", "DELETE"]);
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

async function argsOf(action: HttpAction, request: Request, url: URL, maxBodyBytes: number) {
  if (action.args === undefined) return {};
  if (ARGS_IN_QUERY.has(request.method)) {
    return validateArgs(action.args, argsFromQuery(url, action.args.shape));
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

/**
 * Cookies from another site are CSRF on unsafe methods, unless the CORS
 * policy trusts that origin with credentials.
 */
function needsCrossSiteCheck(policy: CorsPolicy | undefined, request: Request): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const origin = request.headers.get("origin");
  return !(origin !== null && policy?.credentials === true && policy.allows(origin));
}

async function run<Env>(
  runtime: WorkerRuntime<Env>,
  route: HttpRoute,
  params: Record<string, string>,
  request: Request,
  identity: Identity | null,
  url: URL,
  env: Env,
): Promise<Response> {
  const { action } = route;
  const args = await argsOf(action, request, url, runtime.maxBodyBytes);
  const requestId = requestIdOfCall(request);
  const calls = serverCalls(
    {
      functions: runtime.functions,
      shard: (key) => runtime.shard(env, key),
      timeoutMs: runtime.procedureTimeoutMs,
    },
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
 * Serves the app's HTTP actions, a thin adapter over svc's one admission
 * step (`admission.ts`): answers a routed path (405 with `Allow` for a
 * routed path on another method, CORS preflights when the router has a
 * policy), or `undefined` for a path no route matches so the worker's own
 * `fetch` gets it. Admission applies the CSRF rule (unsafe methods, origins
 * CORS does not trust with credentials) and resolves the caller; HTTP
 * actions name no shard (their `ctx.run*` calls do). Errors are problem
 * details, as on every svc route.
 */
export async function handleHttpAction<Env>(
  router: HttpRouter,
  runtime: WorkerRuntime<Env>,
  request: Request,
  env: Env,
  url: URL,
): Promise<Response | undefined> {
  const match = router.match(request.method, url.pathname);
  if (match.kind === "none") return undefined;
  const policy = router.corsPolicy;
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
      return problemResponse(error, { request });
    }
  }
  const { route, params } = match;
  noteCall(request, { entry: "http", route: `${route.method} ${route.pattern}` });
  const door = {
    transport: "http",
    request,
    url,
    env,
    target: `${route.method} ${route.pattern}`,
    resolved: route,
    crossSiteCheck: needsCrossSiteCheck(policy, request),
    // An HTTP action is app code, not a procedure: an API key reaches it with the scope `*`.
    scope: { path: null, kind: SAFE_METHODS.has(request.method) ? "query" : "action" },
    notFound: () => new SvcError("NOT_FOUND", "Not found."),
  } as const;
  let response: Response;
  try {
    response = await throughDoor(door, runtime, ({ identity }) =>
      run(runtime, route, params, request, identity, url, env),
    );
  } catch (error) {
    response = problemResponse(error, { request });
  }
  const answered = request.method === "HEAD" ? new Response(null, response) : response;
  return withCors(answered);
}
