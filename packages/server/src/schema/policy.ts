import type { PolicyCtx } from "../model/policy-ctx.ts";
import type { Rule } from "./rule.ts";

/** A rule: may this caller do this to this document? */
export type PolicyRule<Doc> = (ctx: PolicyCtx, doc: Doc) => boolean | Promise<boolean>;

/**
 * Row-level security of one table. `read` hides rows (never an error);
 * `insert`, `update` and `delete` refuse writes with `FORBIDDEN`. `update` sees
 * the current document and the proposed one (a declarative rule must hold for
 * both). An operation without a rule is refused.
 *
 * Each entry is a declarative {@link Rule} (`rule.eq("author", rule.userId)`),
 * which svc compiles into the SQL of every query so a read touches only rows
 * the caller may see, or a function, which runs on each row after SQLite
 * returned it (a post-filter: it reads every row the query's index range
 * covers, visible or not).
 */
export interface TablePolicies<Doc> {
  read?: PolicyRule<Doc> | Rule;
  insert?: PolicyRule<Doc> | Rule;
  update?: ((ctx: PolicyCtx, current: Doc, next: Doc) => boolean | Promise<boolean>) | Rule;
  delete?: PolicyRule<Doc> | Rule;
}
