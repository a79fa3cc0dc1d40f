import type { AuthContext, CallMeta } from "../procedures/context.ts";

/** What a policy sees about the call: who, and which procedure. */
export interface PolicyCtx {
  auth: AuthContext;
  meta: CallMeta;
}

/** A rule: may this caller do this to this document? */
export type PolicyRule<Doc> = (ctx: PolicyCtx, doc: Doc) => boolean | Promise<boolean>;

/**
 * Row-level security of one table. `read` hides rows (never an error);
 * `insert`, `update` and `delete` refuse writes with `FORBIDDEN`. `update` sees
 * the current document and the proposed one. An operation without a rule is
 * refused.
 */
export interface TablePolicies<Doc> {
  read?: PolicyRule<Doc>;
  insert?: PolicyRule<Doc>;
  update?: (ctx: PolicyCtx, current: Doc, next: Doc) => boolean | Promise<boolean>;
  delete?: PolicyRule<Doc>;
}
