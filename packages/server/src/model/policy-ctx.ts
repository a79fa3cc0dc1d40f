import type { CallMeta } from "./call-meta.ts";
import type { AuthContext } from "./identity.ts";

/**
 * What a row-level security policy sees about the call: who, and which
 * procedure.
 *
 * @example
 * ```ts
 * const mine = (ctx: PolicyCtx, doc: { author: string }) => doc.author === ctx.auth.userId;
 * ```
 */
export interface PolicyCtx {
  auth: AuthContext;
  meta: CallMeta;
}
