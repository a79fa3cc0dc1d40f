import { PathRouter } from "../routes/path-router.ts";
import { type HttpAction, isHttpAction } from "./action.ts";
import { type CorsOptions, type CorsPolicy, corsPolicy } from "./cors.ts";

/** The methods an HTTP action can be routed on. `HEAD` is answered by `GET` routes. */
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

const METHODS: readonly HttpMethod[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

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

function checkPattern(pattern: string): void {
  if (typeof pattern !== "string" || !pattern.startsWith("/")) {
    throw new Error(`svc: HTTP route ${JSON.stringify(pattern)} must start with "/"`);
  }
  if (pattern === "/_svc" || pattern.startsWith("/_svc/")) {
    throw new Error(
      `svc: HTTP route ${pattern} is under /_svc/, which svc reserves for RPC, REST and admin; choose another path`,
    );
  }
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
  const paths = new PathRouter<HttpRoute, HttpMethod>();
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
      checkPattern(pattern);
      paths.add(method, pattern, { method, pattern, action });
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
      return paths.routes.map(({ value }) => value);
    },
    get corsPolicy() {
      return policy;
    },
    match(method, pathname) {
      const found = paths.match(method === "HEAD" ? "GET" : method, pathname);
      if (found.kind === "found")
        return { kind: "found", route: found.value, params: found.params };
      return found.kind === "method" ? { kind: "method", allow: found.allow } : { kind: "none" };
    },
  };
  return router;
}

/** True for a value built by {@link httpRouter}. */
export function isHttpRouter(value: unknown): value is HttpRouter {
  return typeof value === "object" && value !== null && HTTP_ROUTER_BRAND in value;
}
