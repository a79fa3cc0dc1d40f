import type { AuthContext } from "../model/identity.ts";
import type { AnyMiddleware, Middleware } from "../procedures/middleware.ts";
import type { ObjectType, ObjectValidator, Shape } from "../values/composites.ts";
import { v } from "../values/index.ts";
import type { ServerCalls } from "../worker/server-calls.ts";

/** `ctx.meta` of an HTTP action: facts about the request, plus room for middleware. */
export interface HttpActionMeta {
  /** `METHOD pattern`, e.g. `GET /api/users/:id` (what logs and spans group by). */
  readonly path: string;
  readonly method: string;
  /** The route's pattern, e.g. `/api/users/:id`. */
  readonly route: string;
  readonly transport: "http";
  /** A unique id for this request, shared by the shard calls it makes. */
  readonly requestId: string;
  [key: string]: unknown;
}

/**
 * What an HTTP action's handler and middleware see: the caller (`auth`,
 * resolved by `createWorker`'s `resolveIdentity` exactly as for RPC), the
 * route's `params`, the validated `args` when `.input()` declared them, the
 * raw `request`, and calls into shards by key.
 */
export interface HttpActionCtx<Args = Record<never, never>> extends ServerCalls {
  auth: AuthContext;
  meta: HttpActionMeta;
  /** Path parameters by name (`/users/:id` → `params.id`), percent-decoded. */
  params: Readonly<Record<string, string>>;
  /** Validated arguments: the query string for GET, HEAD and DELETE, else the JSON body. */
  args: Args;
  request: Request;
}

/** An HTTP action's handler: answers a `Response` (a streaming body is fine). */
export type HttpHandler<Ctx> = (ctx: Ctx, request: Request) => Response | Promise<Response>;

/** Brands a finished HTTP action. */
export const HTTP_ACTION_BRAND: unique symbol = Symbol.for("svc.httpAction");

/** A finished HTTP action; route it with `httpRouter().route(...)`. */
export interface HttpAction {
  readonly [HTTP_ACTION_BRAND]: true;
  /** The validated arguments' shape, when `.input()` was called. */
  readonly args: ObjectValidator<Shape> | undefined;
  readonly middleware: readonly AnyMiddleware[];
  readonly docs: { summary?: string; description?: string };
  readonly handler: HttpHandler<never>;
}

/** An immutable HTTP action builder; every method returns a new one. */
export interface HttpActionBuilder<Args, Ext> {
  /**
   * Declares and validates arguments (an object of `v.*` validators), read
   * from the query string for GET, HEAD and DELETE and from the JSON body
   * otherwise. Declared routes appear in the OpenAPI document.
   */
  input<S extends Shape>(shape: S): HttpActionBuilder<ObjectType<S>, Ext>;
  /** Adds middleware (e.g. `withAuthPlugins(auth)`); what it passes to `next()` extends `ctx`. */
  use<NewExt extends object>(
    middleware: Middleware<HttpActionCtx<Args> & Ext, NewExt>,
  ): HttpActionBuilder<Args, Ext & NewExt>;
  /** A summary (and longer description) for the API reference. */
  describe(summary: string, description?: string): HttpActionBuilder<Args, Ext>;
  /** Finishes the action with its handler `(ctx, request) => Response`. */
  handler(fn: HttpHandler<HttpActionCtx<Args> & Ext>): HttpAction;
}

interface State {
  args: Shape | undefined;
  middleware: readonly AnyMiddleware[];
  docs: { summary?: string; description?: string };
}

function builderFrom(state: State): HttpActionBuilder<never, never> {
  const next = (patch: Partial<State>) => builderFrom({ ...state, ...patch });
  return Object.freeze({
    input(shape: Shape) {
      if (state.args !== undefined)
        throw new Error("svc: .input() was already called on this action");
      return next({ args: shape });
    },
    use(middleware: AnyMiddleware) {
      if (typeof middleware !== "function")
        throw new TypeError("svc: .use() expects a middleware function");
      return next({ middleware: [...state.middleware, middleware] });
    },
    describe(summary: string, description?: string) {
      return next({ docs: description === undefined ? { summary } : { summary, description } });
    },
    handler(fn: HttpHandler<never>): HttpAction {
      if (typeof fn !== "function") throw new TypeError("svc: .handler() expects a function");
      return Object.freeze({
        [HTTP_ACTION_BRAND]: true as const,
        args: state.args === undefined ? undefined : v.object(state.args),
        middleware: Object.freeze([...state.middleware]),
        docs: state.docs,
        handler: fn,
      });
    },
  }) as unknown as HttpActionBuilder<never, never>;
}

/** True for a value built by {@link httpAction}. */
export function isHttpAction(value: unknown): value is HttpAction {
  return typeof value === "object" && value !== null && HTTP_ACTION_BRAND in value;
}

/**
 * Starts an HTTP action: a handler of your own HTTP route outside `/_svc/`,
 * run in the worker with the caller's identity, middleware and typed calls
 * into shards. Route it in `svc/http.ts`.
 *
 * @example
 * ```ts
 * export const health = httpAction.handler(async (ctx) => {
 *   const notices = await ctx.runQuery(api.messages.notices, {});
 *   return Response.json({ ok: true, notices: notices.length });
 * });
 * ```
 */
export const httpAction: HttpActionBuilder<Record<never, never>, unknown> = builderFrom({
  args: undefined,
  middleware: [],
  docs: {},
}) as unknown as HttpActionBuilder<Record<never, never>, unknown>;
