import type { CallMeta } from "./call-meta.ts";
import type { AuthContext } from "./identity.ts";

/**
 * What every procedure and middleware sees: who calls, facts about the call,
 * and the validated arguments.
 *
 * @example
 * ```ts
 * const logged: Middleware<BaseCtx> = async (ctx, next) => {
 *   console.log(ctx.meta.path, ctx.auth.userId);
 *   return next();
 * };
 * ```
 */
export interface BaseCtx<Args = unknown> {
  auth: AuthContext;
  meta: CallMeta;
  /** The validated arguments (middleware reads them here, e.g. a captcha token). */
  args: Args;
}
