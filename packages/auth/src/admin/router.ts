import { SvcError } from "@svc/server";
import { type AuditAction, AuditScope, type AuditTarget } from "./audit/trail.ts";
import type { Capabilities } from "./capabilities.ts";
import type { AdminEnvironment } from "./environment.ts";
import { toAdminError } from "./errors.ts";
import { parseQuery } from "./query.ts";

/**
 * The names of the `:name` segments of a route pattern.
 *
 * @example
 * ```ts
 * type Names = ParamNames<"users/:id/sessions/:sessionId">; // "id" | "sessionId"
 * ```
 */
export type ParamNames<Pattern extends string> = Pattern extends `${infer Head}/${infer Rest}`
  ? ParamNames<Head> | ParamNames<Rest>
  : Pattern extends `:${infer Name}`
    ? Name
    : never;

/**
 * The path parameters of a route pattern, each a (URL-decoded) string: the
 * type the router guarantees, so handlers read `call.params.id` without `!`.
 *
 * @example
 * ```ts
 * type P = ParamsOf<"users/:id">; // { readonly id: string }
 * ```
 */
export type ParamsOf<Pattern extends string> = { readonly [Name in ParamNames<Pattern>]: string };

/** What a route handler gets: the request, its path parameters and the operator. */
export interface AdminCall<Params extends object = Readonly<Record<string, string>>> {
  environment: AdminEnvironment;
  request: Request;
  url: URL;
  params: Params;
  operator: string;
}

/** What an action handler gets in addition: its audit record. */
export interface ActionCall<Params extends object = Readonly<Record<string, string>>>
  extends AdminCall<Params> {
  audit: AuditScope;
}

/** A capability flag a route requires; the route exists only while it is on (`GET capabilities`). */
export type RequiredCapability = "userActions" | "organizations" | "twoFactor" | "passkeys";

interface BaseRoute<Pattern extends string> {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** Segments; `:name` captures one (URL-decoded). */
  pattern: Pattern;
  requires?: RequiredCapability;
  /** The handler reads the query string (with its own allow-list); otherwise any parameter is refused. */
  query?: true;
}

/** A route that only reads. */
export interface ReadRoute<Pattern extends string = string> extends BaseRoute<Pattern> {
  // Properties, not methods: methods would be checked bivariantly, letting a
  // handler that reads a parameter its pattern lacks slip through.
  handle: (call: AdminCall<ParamsOf<NoInfer<Pattern>>>) => Promise<Response>;
}

/** A route that changes something: recorded in the audit trail, success or not. */
export interface ActionRoute<Pattern extends string = string> extends BaseRoute<Pattern> {
  action: AuditAction;
  target: (params: ParamsOf<NoInfer<Pattern>>) => AuditTarget;
  handle: (call: ActionCall<ParamsOf<NoInfer<Pattern>>>) => Promise<Response>;
}

/**
 * A route of any pattern, as the route table stores it: checked against its
 * pattern by {@link route}, then called with the parameters the router matched.
 */
export type AdminRoute = ReadRoute<string> | ActionRoute<string>;

/**
 * Declares a route, checking its handler and audit target against the
 * parameters its pattern captures (a handler reading `params.sessionId`
 * on `users/:id` does not compile).
 *
 * @example
 * ```ts
 * route({ method: "GET", pattern: "users/:id", handle: getUser });
 * ```
 */
export function route<Pattern extends string>(
  definition: ReadRoute<Pattern> | ActionRoute<Pattern>,
): AdminRoute {
  // Checked above against Pattern; the table holds routes of every pattern.
  return definition as unknown as AdminRoute;
}

/**
 * Dispatches a request to the route whose pattern and method match. A path
 * no enabled route matches is `404`; a known path with another method is
 * `405` with `Allow`; a route whose required capability is off does not exist. Every
 * error is thrown as (or mapped to) an `SvcError`; the caller turns it into
 * problem details.
 *
 * @example
 * ```ts
 * const response = await dispatch(ROUTES, { environment, request, url, path, operator });
 * ```
 */
export async function dispatch(
  routes: readonly AdminRoute[],
  input: {
    environment: AdminEnvironment;
    request: Request;
    url: URL;
    path: string;
    operator: string;
  },
): Promise<Response> {
  const segments = splitPath(input.path);
  const enabled = (route: AdminRoute) =>
    route.requires === undefined || isOn(input.environment.capabilities, route.requires);
  const matching = routes
    .filter(enabled)
    .map((route) => ({ route, params: segments && matchPattern(route.pattern, segments) }))
    .filter((found): found is { route: AdminRoute; params: Record<string, string> } =>
      Boolean(found.params),
    );
  if (matching.length === 0) throw new SvcError("NOT_FOUND", "Not found.");
  const found = matching.find(({ route }) => route.method === input.request.method);
  if (found === undefined) {
    const allow = [...new Set(matching.map(({ route }) => route.method))].join(", ");
    throw new SvcError("METHOD_NOT_ALLOWED", `This route accepts ${allow}.`, {
      headers: { allow },
    });
  }
  const call: AdminCall = { ...input, params: found.params };
  const { route } = found;
  if (!route.query) parseQuery(input.url, {});
  if (!("action" in route)) return mapErrors(() => route.handle(call));
  const audit = new AuditScope(
    input.environment,
    input.operator,
    route.action,
    route.target(found.params),
  );
  try {
    const response = await mapErrors(() => route.handle({ ...call, audit }));
    await audit.finish();
    return response;
  } catch (error) {
    await audit.finish(error);
    throw error;
  }
}

async function mapErrors(run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    throw toAdminError(error);
  }
}

function isOn(capabilities: Capabilities, flag: RequiredCapability): boolean {
  return capabilities[flag];
}

/** Path segments, URL-decoded; `null` for an empty segment or bad encoding. */
function splitPath(path: string): string[] | null {
  const segments = path.split("/");
  try {
    const decoded = segments.map((segment) => decodeURIComponent(segment));
    return decoded.some((segment) => segment === "") ? null : decoded;
  } catch {
    return null;
  }
}

function matchPattern(pattern: string, segments: string[]): Record<string, string> | null {
  const parts = pattern.split("/");
  if (parts.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (const [index, part] of parts.entries()) {
    const segment = segments[index]!;
    if (part.startsWith(":")) params[part.slice(1)] = segment;
    else if (part !== segment) return null;
  }
  return params;
}
