import type { ProcedureKind, Visibility } from "../model/call-meta.ts";
import { type Infer, type ObjectType, type Shape, v } from "../values/index.ts";
import type { AnyValidator } from "../values/validator.ts";
import type { CtxForKind } from "./context.ts";
import type { AnyMiddleware, Middleware } from "./middleware.ts";
import { PROCEDURE_BRAND, type Procedure } from "./procedure.ts";

/** Stands for "no `.output()` declared": the handler's return type is used. */
declare const NO_OUTPUT: unique symbol;
type NoOutput = typeof NO_OUTPUT;

type Ctx<Kind extends ProcedureKind, Args, Ext> = CtxForKind<Kind, Args> & Ext;

/**
 * The handler of a query, mutation or action. With `.output()` declared the
 * procedure's type comes from the validator alone, so procedures that call
 * each other through `api.*` never form a type cycle.
 */
type HandlerMethod<Kind extends ProcedureKind, Vis extends Visibility, Args, Ext, Output> = [
  Output,
] extends [NoOutput]
  ? <R>(
      fn: (ctx: Ctx<Kind, Args, Ext>, args: Args) => R | Promise<R>,
    ) => Procedure<Kind, Vis, Args, Awaited<R>>
  : (
      fn: (ctx: Ctx<Kind, Args, Ext>, args: Args) => Output | Promise<Output>,
    ) => Procedure<Kind, Vis, Args, Output>;

interface BuilderCore<Kind extends ProcedureKind, Vis extends Visibility, Args, Ext, Output> {
  /** Declares and validates the arguments (an object of `v.*` validators). */
  input<S extends Shape>(shape: S): Builder<Kind, Vis, ObjectType<S>, Ext, Output>;
  /** Declares and validates the result; it also types the REST response in OpenAPI. */
  output<V extends AnyValidator>(validator: V): Builder<Kind, Vis, Args, Ext, Infer<V>>;
  /** Adds middleware; what it passes to `next()` extends the context downstream. */
  use<NewExt extends object>(
    middleware: Middleware<Ctx<Kind, Args, Ext>, NewExt>,
  ): Builder<Kind, Vis, Args, Ext & NewExt, Output>;
  /** A summary (and longer description) for the generated API reference. */
  describe(summary: string, description?: string): Builder<Kind, Vis, Args, Ext, Output>;
  /**
   * What this procedure's call records keep beyond the defaults. Arguments
   * are left out of records unless `args: true` (fields named like
   * credentials are still redacted).
   * @see ../../../../docs/observability.md
   */
  log(options: LogOptions): Builder<Kind, Vis, Args, Ext, Output>;
}

/** Options of `.log()`. */
export interface LogOptions {
  /** Record the call's arguments (redacted, at most 4 KB of JSON). @default false */
  args?: boolean;
}

interface CallableCore<
  Kind extends "query" | "mutation" | "action",
  Vis extends Visibility,
  Args,
  Ext,
  Output,
> extends BuilderCore<Kind, Vis, Args, Ext, Output> {
  /** Finishes the procedure with its handler `(ctx, args) => result`. */
  handler: HandlerMethod<Kind, Vis, Args, Ext, Output>;
}

interface StreamCore<Vis extends Visibility, Args, Ext, Output>
  extends BuilderCore<"stream", Vis, Args, Ext, Output> {
  /** Finishes the stream with an async generator; each `yield` is one item for the client. */
  handler<Item>(
    fn: (
      ctx: Ctx<"stream", Args, Ext>,
      args: Args,
    ) => AsyncIterable<[Output] extends [NoOutput] ? Item : Output>,
  ): Procedure<"stream", Vis, Args, [Output] extends [NoOutput] ? Item : Output>;
}

interface Exposable<Kind extends ProcedureKind, Vis extends Visibility, Args, Ext, Output> {
  /**
   * Publishes the procedure at `/_svc/rest/<namespace>/<function>` (queries on
   * GET and POST, mutations and actions on POST). Default closed: without this
   * a procedure has no REST route.
   */
  expose(options: { rest: true }): Builder<Kind, Vis, Args, Ext, Output>;
}

interface RlsOptOut<Kind extends ProcedureKind, Vis extends Visibility, Args, Ext, Output> {
  /**
   * Runs this internal procedure without row-level security. Only internal
   * procedures may opt out, and only by saying so here.
   */
  bypassRls(): Builder<Kind, Vis, Args, Ext, Output>;
}

/** An immutable procedure builder; every method returns a new one. */
export type Builder<
  Kind extends ProcedureKind,
  Vis extends Visibility,
  Args,
  Ext,
  Output,
> = (Kind extends "stream"
  ? StreamCore<Vis, Args, Ext, Output>
  : CallableCore<Exclude<Kind, "stream">, Vis, Args, Ext, Output>) &
  (Vis extends "public"
    ? Kind extends "stream"
      ? unknown
      : Exposable<Kind, Vis, Args, Ext, Output>
    : RlsOptOut<Kind, Vis, Args, Ext, Output>);

type EmptyArgs = Record<never, never>;
type Start<Kind extends ProcedureKind, Vis extends Visibility> = Builder<
  Kind,
  Vis,
  EmptyArgs,
  unknown,
  NoOutput
>;

interface State {
  kind: ProcedureKind;
  visibility: Visibility;
  args: Shape | undefined;
  output: AnyValidator | undefined;
  middleware: readonly AnyMiddleware[];
  rest: boolean;
  bypassRls: boolean;
  docs: { summary?: string; description?: string };
  log: { args: boolean };
}

function builderFrom(state: State): unknown {
  const next = (patch: Partial<State>) => builderFrom({ ...state, ...patch });
  const core: Record<string, unknown> = {
    input(shape: Shape) {
      if (state.args !== undefined)
        throw new Error("svc: .input() was already called on this builder");
      return next({ args: shape });
    },
    output(validator: AnyValidator) {
      return next({ output: validator });
    },
    use(middleware: AnyMiddleware) {
      if (typeof middleware !== "function")
        throw new TypeError("svc: .use() expects a middleware function");
      return next({ middleware: [...state.middleware, middleware] });
    },
    describe(summary: string, description?: string) {
      return next({ docs: description === undefined ? { summary } : { summary, description } });
    },
    log(options: LogOptions) {
      if (typeof options !== "object" || options === null)
        throw new TypeError("svc: .log() takes an options object, e.g. { args: true }");
      const unknown = Object.keys(options).filter((key) => key !== "args");
      if (unknown.length > 0) throw new Error(`svc: .log() has no option ${unknown[0]}`);
      if (options.args !== undefined && typeof options.args !== "boolean")
        throw new TypeError("svc: .log({ args }) must be a boolean");
      return next({ log: { args: options.args ?? false } });
    },
    handler(fn: (ctx: never, args: never) => unknown) {
      if (typeof fn !== "function") throw new TypeError("svc: .handler() expects a function");
      return finish(state, fn);
    },
  };
  if (state.visibility === "public" && state.kind !== "stream") {
    core.expose = (options: { rest: true }) => {
      if (options?.rest !== true) throw new Error("svc: .expose() takes { rest: true }");
      return next({ rest: true });
    };
  }
  if (state.visibility === "internal") core.bypassRls = () => next({ bypassRls: true });
  return Object.freeze(core);
}

function finish(state: State, handler: (ctx: never, args: never) => unknown): Procedure {
  return Object.freeze({
    [PROCEDURE_BRAND]: true as const,
    kind: state.kind,
    visibility: state.visibility,
    args: v.object(state.args ?? {}),
    output: state.output,
    middleware: Object.freeze([...state.middleware]),
    rest: state.rest,
    bypassRls: state.bypassRls,
    docs: state.docs,
    log: state.log,
    handler,
  });
}

function start<Kind extends ProcedureKind, Vis extends Visibility>(
  kind: Kind,
  visibility: Vis,
): Start<Kind, Vis> {
  return builderFrom({
    kind,
    visibility,
    args: undefined,
    output: undefined,
    middleware: [],
    rest: false,
    bypassRls: false,
    docs: {},
    log: { args: false },
  }) as Start<Kind, Vis>;
}

/** A public read-only procedure. `.expose({ rest: true })` adds `GET`/`POST` REST routes. */
export const query = start("query", "public");
/** A public transactional write. `.expose({ rest: true })` adds a `POST` REST route. */
export const mutation = start("mutation", "public");
/** A public procedure without `ctx.db` that may call the outside world and other procedures. */
export const action = start("action", "public");
/** A query only other procedures can call (`ctx.runQuery`). */
export const internalQuery = start("query", "internal");
/** A mutation only other procedures can call (`ctx.runMutation`). */
export const internalMutation = start("mutation", "internal");
/** An action only other procedures can call (`ctx.runAction`). */
export const internalAction = start("action", "internal");
/** A public stream: an async generator whose items reach the client in order over RPC. Never on REST. */
export const stream = start("stream", "public");
