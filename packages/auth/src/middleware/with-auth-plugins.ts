import { defineMiddleware, type Middleware } from "@svc/server";
import { SvcAuthError } from "../errors.ts";

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
  "in a WebSocket subscription the headers of the upgrade request; " +
  "server-to-server (cron, queue consumer) `new Headers()` carrying a bearer token or service key " +
  "(`Authorization: Bearer …` with the bearer plugin). The procedure context has the identity " +
  "(ctx.auth) but not the raw request headers, so they cannot be filled in for you.";

const apis = new WeakMap<object, object>();

/**
 * Middleware, composed once with `.use(...)`, that puts every better-auth
 * endpoint (core and plugins) on `ctx.authApi`. Each call needs the caller's
 * `headers`; a call without them throws `AUTH_API_HEADERS_REQUIRED` with
 * directions, instead of silently running as nobody.
 *
 * @example
 * ```ts
 * const withAuth = withAuthPlugins(auth);
 * export const createTeam = action
 *   .input({ name: v.string(), slug: v.string() })
 *   .use(withAuth)
 *   .handler((ctx, args) =>
 *     ctx.authApi.createOrganization({ body: args, headers: requestHeaders }),
 *   );
 * ```
 */
export function withAuthPlugins<Api extends object>(auth: {
  api: Api;
}): Middleware<unknown, AuthApiContext<Api>> {
  const authApi = wrap(auth.api);
  return defineMiddleware<AuthApiContext<Api>, unknown>((_ctx, next) => next({ authApi }));
}

function wrap<Api extends object>(api: Api): AuthApi<Api> {
  const known = apis.get(api);
  if (known) return known as AuthApi<Api>;
  const wrapped: Record<string, unknown> = {};
  for (const [name, endpoint] of Object.entries(api)) {
    if (typeof endpoint !== "function") continue;
    wrapped[name] = (context?: { headers?: unknown }) => {
      if (context?.headers === undefined || context.headers === null) {
        throw new SvcAuthError(
          "AUTH_API_HEADERS_REQUIRED",
          `ctx.authApi.${name}() needs \`headers\`. ${HEADERS_HELP}`,
        );
      }
      return endpoint(context);
    };
  }
  apis.set(api, wrapped);
  return wrapped as AuthApi<Api>;
}
