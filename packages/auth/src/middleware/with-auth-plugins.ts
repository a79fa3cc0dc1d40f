import { defineMiddleware, type Middleware } from "@svc/server";
import { SvcAuthError } from "../errors.ts";
import {
  type ServiceAccountOptions,
  type ServiceAuthSource,
  serviceCredential,
} from "../service-account.ts";

/** Options every `ctx.authApi` call carries on top of the endpoint's own. */
interface CallerHeaders {
  /**
   * The caller's request headers (cookie or `Authorization`), which
   * better-auth reads the session from. See {@link withAuthPlugins}.
   */
  headers: HeadersInit;
}

/** Call options that change what an endpoint returns; `ctx.authApi` always returns the data. */
type ResponseShaping = "asResponse" | "returnHeaders" | "returnStatus";

/**
 * One endpoint of `auth.api`, with `headers` required. Its input and output
 * types are better-auth's (inferred from the endpoint's plain call signature).
 */
type RequireHeaders<Endpoint> = Endpoint extends (context?: infer Input) => Promise<infer Output>
  ? (
      context: Omit<NonNullable<Input>, "headers" | ResponseShaping> & CallerHeaders,
    ) => Promise<Output>
  : Endpoint;

/**
 * `ctx.authApi`: every endpoint of `auth.api` (core and every loaded plugin,
 * typed from the auth instance), each taking `{ body, query, headers }` with
 * `headers` required.
 */
export type AuthApi<Api> = { [Name in keyof Api]: RequireHeaders<Api[Name]> };

/** The context extension {@link withAuthPlugins} adds. */
export interface AuthApiContext<Api> {
  authApi: AuthApi<Api>;
}

const HEADERS_HELP =
  "Pass the caller's headers: in an HTTP action `request.headers`; " +
  "in a subscription `new Headers(ctx.meta.headers)` (the upgrade request's); " +
  "server-to-server (cron, queue consumer) `new Headers()`, which the service account fills in " +
  "(withAuthPlugins(auth, { serviceAccount: {} })). The procedure context has the identity " +
  "(ctx.auth) but not the raw request headers, so they cannot be filled in for you.";

/** Options of {@link withAuthPlugins}. */
export interface WithAuthPluginsOptions {
  /**
   * Lets cron jobs and queue consumers (`ctx.auth.kind === "service"`) call
   * `ctx.authApi` with empty `Headers`: svc adds a session of this service
   * account. Without it such a call throws `AUTH_SERVICE_ACCOUNT_MISSING`.
   */
  serviceAccount?: ServiceAccountOptions;
}

/** An auth instance: its server API, and its context for the service account. */
export interface AuthApiSource<Api> {
  api: Api;
  $context?: PromiseLike<unknown>;
}

type Credential = () => Promise<string>;

function isServiceCall(ctx: unknown): boolean {
  return (ctx as { auth?: { kind?: unknown } } | null)?.auth?.kind === "service";
}

const missingServiceAccount: Credential = () =>
  Promise.reject(
    new SvcAuthError(
      "AUTH_SERVICE_ACCOUNT_MISSING",
      "a cron job or queue consumer called ctx.authApi without credentials; " +
        'configure withAuthPlugins(auth, { serviceAccount: { role: "admin" } }) or pass a bearer token in headers',
    ),
  );

/**
 * Middleware, composed once with `.use(...)`, that puts every better-auth
 * endpoint (core and plugins) on `ctx.authApi`. Each call needs the caller's
 * `headers`; a call without them throws `AUTH_API_HEADERS_REQUIRED` with
 * directions, instead of silently running as nobody. In a cron job or queue
 * consumer, headers without a cookie or `Authorization` are filled with a
 * session of `options.serviceAccount`.
 *
 * @example
 * ```ts
 * const withAuth = withAuthPlugins(auth, { serviceAccount: { role: "admin" } });
 * export const me = httpAction.use(withAuth).handler(async (ctx, request) =>
 *   Response.json(await ctx.authApi.listOrganizations({ headers: request.headers })),
 * );
 * ```
 */
export function withAuthPlugins<Api extends object>(
  auth: AuthApiSource<Api>,
  options: WithAuthPluginsOptions = {},
): Middleware<unknown, AuthApiContext<Api>> {
  const asCaller = wrap(auth.api, undefined);
  let credential = missingServiceAccount;
  if (options.serviceAccount !== undefined) {
    if (auth.$context === undefined)
      throw new SvcAuthError(
        "AUTH_SERVICE_ACCOUNT_INVALID",
        "serviceAccount needs an auth instance from createAuth",
      );
    credential = serviceCredential(auth as ServiceAuthSource, options.serviceAccount);
  }
  const asService = wrap(auth.api, credential);
  return defineMiddleware<AuthApiContext<Api>, unknown>((ctx, next) =>
    next({ authApi: isServiceCall(ctx) ? asService : asCaller }),
  );
}

function hasCredentials(headers: HeadersInit): boolean {
  const list = new Headers(headers);
  return list.has("cookie") || list.has("authorization");
}

function wrap<Api extends object>(api: Api, service: Credential | undefined): AuthApi<Api> {
  const cache = service === undefined ? callerApis : undefined;
  const known = cache?.get(api);
  if (known) return known as AuthApi<Api>;
  const wrapped: Record<string, unknown> = {};
  for (const [name, endpoint] of Object.entries(api)) {
    if (typeof endpoint !== "function") continue;
    wrapped[name] = (context?: { headers?: HeadersInit | null }) => {
      if (context?.headers === undefined || context.headers === null) {
        throw new SvcAuthError(
          "AUTH_API_HEADERS_REQUIRED",
          `ctx.authApi.${name}() needs \`headers\`. ${HEADERS_HELP}`,
        );
      }
      if (service === undefined || hasCredentials(context.headers)) return endpoint(context);
      return service().then((cookie) => {
        const headers = new Headers(context.headers as HeadersInit);
        headers.set("cookie", cookie);
        return endpoint({ ...context, headers });
      });
    };
  }
  cache?.set(api, wrapped);
  return wrapped as AuthApi<Api>;
}

const callerApis = new WeakMap<object, object>();
