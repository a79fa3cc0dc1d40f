import type { BaseCtx } from "./context.ts";

/**
 * Calls the rest of the chain (later middleware, then the handler). Pass an
 * object to extend the context downstream; its keys are merged into `ctx`.
 */
export type Next<Ext extends object> = [keyof Ext] extends [never]
  ? (extension?: Ext) => Promise<unknown>
  : (extension: Ext) => Promise<unknown>;

/**
 * Procedure middleware, attached with `.use()`. Runs after argument validation
 * (so it sees `ctx.args`) and before the handler; throws an `SvcError` to
 * refuse the call, or calls `next(extension)` to continue with a richer
 * context.
 */
export type Middleware<In = BaseCtx, Ext extends object = Record<never, never>> = (
  ctx: In,
  next: Next<Ext>,
) => Promise<unknown>;

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
  next: (extension?: object) => Promise<unknown>,
) => Promise<unknown>;

/**
 * Runs `middleware` in order around `last`, each seeing the context the
 * previous one extended. A middleware that calls `next` twice is a bug and is
 * refused.
 */
export function runMiddleware(
  middleware: readonly AnyMiddleware[],
  ctx: Record<string, unknown>,
  last: (ctx: Record<string, unknown>) => Promise<unknown>,
): Promise<unknown> {
  const step = (index: number, current: Record<string, unknown>): Promise<unknown> => {
    const layer = middleware[index];
    if (layer === undefined) return last(current);
    let called = false;
    return (layer as (ctx: unknown, next: (ext?: object) => Promise<unknown>) => Promise<unknown>)(
      current,
      (extension) => {
        if (called) throw new Error("svc: middleware called next() twice");
        called = true;
        return step(index + 1, extension ? Object.assign(current, extension) : current);
      },
    );
  };
  return step(0, ctx);
}
