import type { CallerKind } from "../model/identity.ts";
import type { PolicyCtx } from "../model/policy-ctx.ts";

/** A value a rule compares a field with, known only when a call runs. */
export type Operand =
  | { readonly kind: "userId" }
  | { readonly kind: "claim"; readonly name: string }
  | { readonly kind: "apiKey"; readonly field: ApiKeyField }
  | { readonly kind: "value"; readonly value: Literal | readonly Literal[] };

/** The fields of the calling API key a rule may compare with (`rule.apiKey(field)`). */
export type ApiKeyField = "id" | "ownerUserId" | "ownerOrganizationId";

/** What a rule may compare with: JSON primitives. */
export type Literal = string | number | boolean | null;

/** Brands a declarative rule. */
export const RULE_BRAND: unique symbol = Symbol.for("svc.rule");

/**
 * A declarative row-level security rule: a predicate over a document's
 * fields and the caller. Unlike a function policy, svc compiles a rule into
 * the SQL `WHERE` of every query, so a read only touches rows the caller may
 * see (and an index over the rule's fields serves it). Build rules with
 * {@link rule}.
 */
export type Rule = { readonly [RULE_BRAND]: true } & (
  | { readonly op: "eq"; readonly field: string; readonly operand: Operand }
  | { readonly op: "in"; readonly field: string; readonly operand: Operand }
  | { readonly op: "and" | "or"; readonly rules: readonly Rule[] }
  | { readonly op: "const"; readonly value: boolean }
  | { readonly op: "caller"; readonly kinds: readonly CallerKind[] }
);

type RuleBody = Rule extends infer R
  ? R extends unknown
    ? Omit<R, typeof RULE_BRAND>
    : never
  : never;

function make(body: RuleBody): Rule {
  return Object.freeze({ ...body, [RULE_BRAND]: true }) as Rule;
}

function operandOf(value: Operand | Literal | readonly Literal[]): Operand {
  if (value !== null && typeof value === "object" && "kind" in value) return value as Operand;
  return { kind: "value", value: value as Literal | readonly Literal[] };
}

/**
 * Builds declarative rules for `defineTable(...).policy(...)`.
 *
 * - `rule.eq(field, operand)`: the field equals the operand: `rule.userId` (the caller's user id),
 *   `rule.claim(name)` (a field of the caller's identity) or a literal. A caller without a user id
 *   (or without the claim) matches nothing.
 * - `rule.in(field, operand)`: the field is one of an array: a claim holding an array, or a literal list.
 * - `rule.and(...)`, `rule.or(...)`, `rule.always`, `rule.never`.
 * - `rule.apiKey(field)`: a field of the calling API key: `id`, `ownerUserId` or
 *   `ownerOrganizationId` (a caller without a key, or a key without that owner, matches nothing).
 * - `rule.callerIs("service")`: the caller's kind (`user`, `apiKey`, `anonymous`, `service`).
 *
 * @example
 * ```ts
 * defineTable({ author: v.string(), team: v.string(), body: v.string() })
 *   .index("by_author", ["author"])
 *   .policy({
 *     read: rule.or(rule.eq("author", rule.userId), rule.in("team", rule.claim("teams"))),
 *     insert: rule.eq("author", rule.userId),
 *   });
 * ```
 */
export const rule = {
  /** The caller's user id (`null` for anonymous and service callers: matches nothing). */
  userId: Object.freeze({ kind: "userId" }) as Operand,
  /** A field of the caller's identity (what `resolveIdentity` returned), e.g. `teams`. */
  claim: (name: string): Operand => Object.freeze({ kind: "claim", name }),
  /** A field of the calling API key, e.g. `ownerOrganizationId` (an organization's key). */
  apiKey: (field: ApiKeyField): Operand => Object.freeze({ kind: "apiKey", field }),
  eq: (field: string, operand: Operand | Literal): Rule =>
    make({ op: "eq", field, operand: operandOf(operand) }),
  in: (field: string, operand: Operand | readonly Literal[]): Rule =>
    make({ op: "in", field, operand: operandOf(operand) }),
  and: (...rules: Rule[]): Rule => make({ op: "and", rules }),
  or: (...rules: Rule[]): Rule => make({ op: "or", rules }),
  always: make({ op: "const", value: true }),
  never: make({ op: "const", value: false }),
  callerIs: (...kinds: CallerKind[]): Rule => make({ op: "caller", kinds }),
};

/** True for a value built by {@link rule}. */
export function isRule(value: unknown): value is Rule {
  return typeof value === "object" && value !== null && RULE_BRAND in value;
}

/** The fields a rule reads (to check them against the table's declared fields). */
export function ruleFields(target: Rule): string[] {
  if (target.op === "eq" || target.op === "in") return [target.field];
  if (target.op === "and" || target.op === "or") return target.rules.flatMap(ruleFields);
  return [];
}

/** Marks "the caller has no such value": matches nothing. */
const ABSENT = Symbol("absent");

async function resolve(operand: Operand, ctx: PolicyCtx): Promise<unknown> {
  if (operand.kind === "value") return operand.value;
  if (operand.kind === "userId") return ctx.auth.userId ?? ABSENT;
  if (operand.kind === "apiKey") return ctx.auth.apiKey?.[operand.field] ?? ABSENT;
  const identity = await ctx.auth.getIdentity();
  const value = identity === null ? undefined : identity[operand.name];
  return value === undefined || value === null ? ABSENT : value;
}

function isLiteral(value: unknown): value is Literal {
  return (
    value === null ||
    typeof value === "string" ||
    (typeof value === "number" && Number.isFinite(value)) ||
    typeof value === "boolean"
  );
}

/**
 * A document's value at a dotted field path (`"author.id"`), or `undefined`
 * where any part is missing; own properties only, so a path never reads the
 * prototype (`"__proto__"`, `"constructor"`). Rules and the studio's filters
 * read fields the same way through this one function.
 *
 * @example fieldValue({ author: { id: "u1" } }, "author.id") // "u1"
 */
export function fieldValue(doc: Record<string, unknown>, field: string): unknown {
  let value: unknown = doc;
  for (const part of field.split(".")) {
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, part))
      return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/**
 * Evaluates a rule against one document, in JavaScript: what a write is
 * checked with, and the reference the SQL form must agree with.
 *
 * @example await evaluateRule(rule.eq("author", rule.userId), ctx, doc) // true for the author
 */
export async function evaluateRule(
  target: Rule,
  ctx: PolicyCtx,
  doc: Record<string, unknown>,
): Promise<boolean> {
  switch (target.op) {
    case "const":
      return target.value;
    case "caller":
      return target.kinds.includes(ctx.auth.kind);
    case "and":
      for (const inner of target.rules) if (!(await evaluateRule(inner, ctx, doc))) return false;
      return true;
    case "or":
      for (const inner of target.rules) if (await evaluateRule(inner, ctx, doc)) return true;
      return false;
    case "eq": {
      const operand = await resolve(target.operand, ctx);
      return isLiteral(operand) && fieldValue(doc, target.field) === operand;
    }
    case "in": {
      const operand = await resolve(target.operand, ctx);
      if (!Array.isArray(operand)) return false;
      const value = fieldValue(doc, target.field);
      return operand.some((item) => isLiteral(item) && item === value);
    }
  }
}

/** A compiled rule: a SQL boolean expression and its bindings. */
export interface CompiledRule {
  sql: string;
  bindings: SqlStorageValue[];
}

/** SQL that is true exactly when the document's field equals `value` as JavaScript's `===` would say. */
function equalsSql(field: string, value: Literal): CompiledRule {
  if (field === "_id")
    return typeof value === "string"
      ? { sql: "_id = ?", bindings: [value] }
      : { sql: "0", bindings: [] };
  if (field === "_creationTime") {
    return typeof value === "number"
      ? { sql: "_creationTime = ?", bindings: [value] }
      : { sql: "0", bindings: [] };
  }
  const path = `'$.${field}'`;
  const type = `json_type(_doc, ${path})`;
  const extract = `json_extract(_doc, ${path})`;
  if (value === null) return { sql: `${type} = 'null'`, bindings: [] };
  if (typeof value === "boolean")
    return { sql: `${type} = '${value ? "true" : "false"}'`, bindings: [] };
  if (typeof value === "string")
    return { sql: `(${extract} = ? AND ${type} = 'text')`, bindings: [value] };
  return { sql: `(${extract} = ? AND ${type} IN ('integer', 'real'))`, bindings: [value] };
}

function join(parts: CompiledRule[], operator: "AND" | "OR", empty: string): CompiledRule {
  if (parts.length === 0) return { sql: empty, bindings: [] };
  return {
    sql: `(${parts.map((part) => part.sql).join(` ${operator} `)})`,
    bindings: parts.flatMap((part) => part.bindings),
  };
}

/**
 * Compiles a rule for one call into SQL over a table's `_doc` column, with
 * the caller's values bound now. It selects exactly the rows
 * {@link evaluateRule} accepts (field types included: `"1"` never equals `1`).
 *
 * @example await compileRule(rule.eq("author", rule.userId), ctx) // { sql: "(json_extract(…) = ? AND …)", bindings: ["u1"] }
 */
export async function compileRule(target: Rule, ctx: PolicyCtx): Promise<CompiledRule> {
  switch (target.op) {
    case "const":
      return { sql: target.value ? "1" : "0", bindings: [] };
    case "caller":
      return { sql: target.kinds.includes(ctx.auth.kind) ? "1" : "0", bindings: [] };
    case "and":
    case "or": {
      const parts = await Promise.all(target.rules.map((inner) => compileRule(inner, ctx)));
      return join(parts, target.op === "and" ? "AND" : "OR", target.op === "and" ? "1" : "0");
    }
    case "eq": {
      const operand = await resolve(target.operand, ctx);
      return isLiteral(operand) ? equalsSql(target.field, operand) : { sql: "0", bindings: [] };
    }
    case "in": {
      const operand = await resolve(target.operand, ctx);
      if (!Array.isArray(operand)) return { sql: "0", bindings: [] };
      const parts = operand.filter(isLiteral).map((item) => equalsSql(target.field, item));
      return join(parts, "OR", "0");
    }
  }
}
