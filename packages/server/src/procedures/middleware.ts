import type { BaseCtx } from "../model/base-ctx.ts";

declare const middlewareResult: unique symbol;

/**
 * What `next()` resolves to: the rest of the chain's result, opaque. A
 * middleware must return it (`return next()`), which is how svc makes sure no
 * middleware loses the procedure's result: `async (ctx, next) => { await
 * next(); }` does not compile, and at run time a middleware that returns
 * anything else is refused (`INTERNAL`, logged with the procedure's path).
 */
export interface MiddlewareResult {
  readonly [middlewareResult]: true;
}

/**
 * Calls the rest of the chain (later middleware, then the handler). Pass an
 * object to extend the context downstream; its keys are merged into `ctx`.
 */
export type Next<Ext extends object> = [keyof Ext] extends [never]
  ? (extension?: Ext) => Promise<MiddlewareResult>
  : (extension: Ext) => Promise<MiddlewareResult>;

/**
 * Procedure middleware, attached with `.use()`. Runs after argument validation
 * (so it sees `ctx.args`) and before the handler; throws an `SvcError` to
 * refuse the call, or returns `next(extension)` to continue with a richer
 * context.
 */
export type Middleware<In = BaseCtx, Ext extends object = Record<never, never>> = (
  ctx: In,
  next: Next<Ext>,
) => Promise<MiddlewareResult>;

/**
 * Declares a middleware with its context extension, for reuse across procedures.
 *
 * @example
 * ```ts
 * const withClock = defineMiddleware<{ now: number }>(async (ctx, next) => next({ now: Date.now() }));
 * export const ping = query.use(withClock).handler((ctx) => ctx.now);
 * ```
 */
export function defineMiddleware<Ext extends object = Record<never, never>, In = BaseCtx>(
  middleware: Middleware<In, Ext>,
): Middleware<In, Ext> {
  return middleware;
}

/** Middleware with its types erased, as stored on a procedure. */
export type AnyMiddleware = (
  ctx: never,
  next: (extension?: object) => Promise<MiddlewareResult>,
) => Promise<MiddlewareResult>;

/** The runtime form of a {@link MiddlewareResult}: the chain's output, boxed. */
interface ResultBox {
  readonly output: unknown;
}

type ErasedLayer = (ctx: unknown, next: (ext?: object) => Promise<ResultBox>) => Promise<unknown>;

/**
 * Runs `middleware` in order around `last`, each seeing the context the
 * previous one extended, and returns the handler's output. Refused as bugs
 * (plain errors: the caller gets `INTERNAL`, the log gets the message): a
 * middleware that calls `next` twice, and one that returns anything but the
 * result of its `next()` — which would have silently replaced the
 * procedure's result (with `undefined` for `{ await next(); }`).
 *
 * @example
 * ```ts
 * const output = await runMiddleware(procedure.middleware, ctx, (finalCtx) => handler(finalCtx, args));
 * ```
 */
export async function runMiddleware(
  middleware: readonly AnyMiddleware[],
  ctx: Record<string, unknown>,
  last: (ctx: Record<string, unknown>) => Promise<unknown>,
): Promise<unknown> {
  return (await runFrom(middleware, 0, ctx, last)).output;
}

/** The chain from layer `index` on (a function, not a closure made per call of a procedure). */
async function runFrom(
  middleware: readonly AnyMiddleware[],
  index: number,
  current: Record<string, unknown>,
  last: (ctx: Record<string, unknown>) => Promise<unknown>,
): Promise<ResultBox> {
  const layer = middleware[index] as ErasedLayer | undefined;
  if (layer === undefined) return { output: await last(current) };
  let called = false;
  let produced: ResultBox | undefined;
  const returned = await layer(current, async (extension) => {
    if (called) throw new Error("svc: middleware called next() twice");
    called = true;
    produced = await runFrom(
      middleware,
      index + 1,
      extension ? Object.assign(current, extension) : current,
      last,
    );
    return produced;
  });
  if (produced === undefined || returned !== produced) {
    throw new Error(
      `svc: middleware #${index + 1} of ${String(current.meta && (current.meta as { path?: unknown }).path)} ` +
        (produced === undefined
          ? "neither called next() nor threw: return next() to continue, or throw an SvcError to refuse"
          : "did not return the result of next(): write `return next(...)`"),
    );
  }
  return produced;
}
