import { type HttpAction, isHttpAction } from "./action.ts";
import { type CorsOptions, type CorsPolicy, corsPolicy } from "./cors.ts";

/** The methods an HTTP action can be routed on. `HEAD` is answered by `GET` routes. */
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

const METHODS: readonly HttpMethod[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];
const PARAM = /^:([A-Za-z_][A-Za-z0-9_]*)$/;
const LITERAL = /^[A-Za-z0-9._~!$&'()+,;=@%-]+$/;

/** One routed action. */
export interface HttpRoute {
  method: HttpMethod;
  /** The pattern as declared, e.g. `/api/users/:id`. */
  pattern: string;
  action: HttpAction;
}

/** What {@link HttpRouter.match} finds for a request. */
export type RouteMatch =
  | { kind: "found"; route: HttpRoute; params: Record<string, string> }
  /** The path is routed, not for this method: answer 405 with `allow`. */
  | { kind: "method"; allow: HttpMethod[] }
  | { kind: "none" };

type Segment = { literal: string } | { param: string } | { rest: true };

interface Compiled extends HttpRoute {
  segments: Segment[];
}

/** Brands a router. */
export const HTTP_ROUTER_BRAND: unique symbol = Symbol.for("svc.httpRouter");

/**
 * The app's own HTTP routes, declared in `svc/http.ts` (its default export)
 * and served by `createWorker` for every path outside `/_svc/`.
 */
export interface HttpRouter {
  readonly [HTTP_ROUTER_BRAND]: true;
  /**
   * Routes `method pattern` to `action`. Patterns are `/`-separated: literal
   * segments, `:name` parameters, and a final `*` for the rest of the path
   * (`params["*"]`). Paths under `/_svc/` are svc's and refused.
   */
  route(method: HttpMethod, pattern: string, action: HttpAction): HttpRouter;
  get(pattern: string, action: HttpAction): HttpRouter;
  post(pattern: string, action: HttpAction): HttpRouter;
  put(pattern: string, action: HttpAction): HttpRouter;
  patch(pattern: string, action: HttpAction): HttpRouter;
  delete(pattern: string, action: HttpAction): HttpRouter;
  /** Answers CORS preflights and adds CORS headers for these routes; see {@link CorsOptions}. */
  cors(options: CorsOptions): HttpRouter;
  /** Every route, in declaration order. */
  readonly routes: readonly HttpRoute[];
  /** The CORS policy, if {@link HttpRouter.cors} was called. */
  readonly corsPolicy: CorsPolicy | undefined;
  /** Finds the route for a method and a (raw, percent-encoded) path. */
  match(method: string, pathname: string): RouteMatch;
}

function compile(pattern: string): Segment[] {
  if (typeof pattern !== "string" || !pattern.startsWith("/")) {
    throw new Error(`svc: HTTP route ${JSON.stringify(pattern)} must start with "/"`);
  }
  if (pattern === "/_svc" || pattern.startsWith("/_svc/")) {
    throw new Error(
      `svc: HTTP route ${pattern} is under /_svc/, which svc reserves for RPC, REST and admin; choose another path`,
    );
  }
  const parts = pattern === "/" ? [] : pattern.slice(1).split("/");
  const names = new Set<string>();
  return parts.map((part, index): Segment => {
    if (part === "*") {
      if (index !== parts.length - 1)
        throw new Error(`svc: in HTTP route ${pattern}, "*" must be the last segment`);
      return { rest: true };
    }
    const param = PARAM.exec(part);
    if (param) {
      const name = param[1]!;
      if (names.has(name))
        throw new Error(`svc: HTTP route ${pattern} names the parameter :${name} twice`);
      names.add(name);
      return { param: name };
    }
    if (!LITERAL.test(part))
      throw new Error(`svc: HTTP route ${pattern} has an invalid segment ${JSON.stringify(part)}`);
    return { literal: part };
  });
}

/** A pattern with parameter names erased: `/a/:id` and `/a/:key` collide. */
function shapeOf(segments: Segment[]): string {
  return segments
    .map((segment) => ("literal" in segment ? segment.literal : "rest" in segment ? "*" : ":"))
    .join("/");
}

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function matchSegments(segments: Segment[], parts: string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index]!;
    if ("rest" in segment) {
      const rest = decode(parts.slice(index).join("/"));
      if (rest === undefined) return undefined;
      params["*"] = rest;
      return params;
    }
    const part = parts[index];
    if (part === undefined) return undefined;
    if ("literal" in segment) {
      if (part !== segment.literal) return undefined;
      continue;
    }
    const value = decode(part);
    if (value === undefined || value === "") return undefined;
    params[segment.param] = value;
  }
  return parts.length === segments.length ? params : undefined;
}

/**
 * Starts the app's HTTP router. Export it as the default of `svc/http.ts`;
 * `svc codegen` finds it and `createWorker({ http })` serves it.
 *
 * @example
 * ```ts
 * const http = httpRouter();
 * http.get("/api/health", httpAction.handler(() => Response.json({ ok: true })));
 * export default http;
 * ```
 */
export function httpRouter(): HttpRouter {
  const routes: Compiled[] = [];
  let policy: CorsPolicy | undefined;
  const router: HttpRouter = {
    [HTTP_ROUTER_BRAND]: true,
    route(method, pattern, action) {
      if (!METHODS.includes(method))
        throw new Error(
          `svc: HTTP method ${JSON.stringify(method)} is not one of ${METHODS.join(", ")}`,
        );
      if (!isHttpAction(action))
        throw new Error(
          `svc: ${method} ${pattern} must be routed to an httpAction(...).handler(...)`,
        );
      const segments = compile(pattern);
      const shape = shapeOf(segments);
      if (routes.some((other) => other.method === method && shapeOf(other.segments) === shape)) {
        throw new Error(`svc: ${method} ${pattern} is routed twice`);
      }
      routes.push({ method, pattern, action, segments });
      return router;
    },
    get: (pattern, action) => router.route("GET", pattern, action),
    post: (pattern, action) => router.route("POST", pattern, action),
    put: (pattern, action) => router.route("PUT", pattern, action),
    patch: (pattern, action) => router.route("PATCH", pattern, action),
    delete: (pattern, action) => router.route("DELETE", pattern, action),
    cors(options) {
      policy = corsPolicy(options);
      return router;
    },
    get routes() {
      return routes.map(({ method, pattern, action }) => ({ method, pattern, action }));
    },
    get corsPolicy() {
      return policy;
    },
    match(method, pathname) {
      const parts = pathname === "/" ? [] : pathname.slice(1).split("/");
      const wanted = method === "HEAD" ? "GET" : method;
      const allow = new Set<HttpMethod>();
      for (const route of routes) {
        const params = matchSegments(route.segments, parts);
        if (params === undefined) continue;
        if (route.method === wanted) return { kind: "found", route, params };
        allow.add(route.method);
      }
      return allow.size > 0 ? { kind: "method", allow: [...allow] } : { kind: "none" };
    },
  };
  return router;
}

/** True for a value built by {@link httpRouter}. */
export function isHttpRouter(value: unknown): value is HttpRouter {
  return typeof value === "object" && value !== null && HTTP_ROUTER_BRAND in value;
}
