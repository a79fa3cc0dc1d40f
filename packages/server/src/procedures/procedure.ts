import type { ProcedureKind, Visibility } from "../model/call-meta.ts";
import type { AnyValidator, ObjectValidator, Shape } from "../values/index.ts";
import type { AnyMiddleware } from "./middleware.ts";

/** Marks procedure values so discovery can tell them from other exports. */
export const PROCEDURE_BRAND = Symbol.for("svc.procedure");

/** A finished procedure: what `.handler()` returns and the registry holds. */
export interface Procedure<
  Kind extends ProcedureKind = ProcedureKind,
  Vis extends Visibility = Visibility,
  Args = unknown,
  Output = unknown,
> {
  readonly [PROCEDURE_BRAND]: true;
  readonly kind: Kind;
  readonly visibility: Vis;
  /** Validator of the arguments object (an empty object when `.input` was not called). */
  readonly args: ObjectValidator<Shape>;
  readonly output: AnyValidator | undefined;
  readonly middleware: readonly AnyMiddleware[];
  /** Published on `/_svc/rest/...` (public query, mutation and action only). */
  readonly rest: boolean;
  /** An internal procedure that explicitly opted out of RLS. */
  readonly bypassRls: boolean;
  /** A short summary and description for generated docs. */
  readonly docs: { summary?: string; description?: string };
  /** What call records keep (`.log()`): arguments only when `args` is true. */
  readonly log: { readonly args: boolean };
  readonly handler: (ctx: never, args: never) => unknown;
  /** Type-only markers. */
  readonly __args?: Args;
  readonly __output?: Output;
}

/** Any procedure, whatever its types. */
export type AnyProcedure = Procedure<ProcedureKind, Visibility, unknown, unknown>;

/** True when `value` is a procedure made by an svc builder. */
export function isProcedure(value: unknown): value is AnyProcedure {
  return typeof value === "object" && value !== null && PROCEDURE_BRAND in value;
}

/** The procedures of an app by path (`messages:list`), as `svc codegen` emits them. */
export type FunctionRegistry = Readonly<Record<string, AnyProcedure>>;
