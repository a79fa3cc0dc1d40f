import type { ProcedureKind, Visibility } from "../model/call-meta.ts";
import { type AnyProcedure, isProcedure, type Procedure } from "./procedure.ts";

// `@svc/server/references` is the browser-safe entry of typed references: it carries the kinds they name.
export type { ProcedureKind, Visibility } from "../model/call-meta.ts";

/**
 * A typed pointer to a procedure by path, as `svc codegen` emits them in
 * `_generated/api.ts` (`api.messages.list`, `internal.messages.purge`). Carries
 * types only; safe to import in browsers and Node.
 */
export interface FunctionReference<
  Kind extends ProcedureKind = ProcedureKind,
  Vis extends Visibility = Visibility,
  Args = unknown,
  Output = unknown,
> {
  readonly path: string;
  readonly kind: Kind;
  readonly visibility: Vis;
  /** Type-only markers. */
  readonly __args?: Args;
  readonly __output?: Output;
}

/** The reference type for a procedure value (`typeof messages.list`). */
export type ReferenceOf<P> =
  P extends Procedure<infer Kind, infer Vis, infer Args, infer Output>
    ? FunctionReference<Kind, Vis, Args, Output>
    : never;

/** What `ctx.run*` accepts: a reference or the procedure value itself. */
export type RunnableReference<Kind extends ProcedureKind, Args, Output> =
  | FunctionReference<Kind, Visibility, Args, Output>
  | Procedure<Kind, Visibility, Args, Output>;

/**
 * Builds a reference. Used by generated code; apps rarely call it directly.
 *
 * @example
 * ```ts
 * export const api = { messages: { list: makeReference<typeof messages.list>("messages:list", "query", "public") } };
 * ```
 */
export function makeReference<P extends AnyProcedure>(
  path: string,
  kind: P["kind"],
  visibility: P["visibility"],
): ReferenceOf<P> {
  return Object.freeze({ path, kind, visibility }) as unknown as ReferenceOf<P>;
}

const PROCEDURE_PATH = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*:[A-Za-z_$][\w$]*$/;

/** True for a well-formed `namespace:function` path (namespaces may nest with `/`). */
export function isProcedurePath(path: string): boolean {
  return PROCEDURE_PATH.test(path);
}

/** Splits `admin/users:list` into `{ namespace: "admin/users", name: "list" }`. */
export function splitProcedurePath(path: string): { namespace: string; name: string } {
  const cut = path.lastIndexOf(":");
  return { namespace: path.slice(0, cut), name: path.slice(cut + 1) };
}

/**
 * A reference or procedure value; whether it names a procedure of the right
 * kind is checked against the registry by `createWorker` and `svc codegen`.
 * Cron jobs and queue consumers both take one, so both ask here.
 *
 * @example if (!isReferenceLike(target)) throw new Error("svc: must run a procedure reference");
 */
export function isReferenceLike(value: unknown): boolean {
  return (
    (typeof value === "object" &&
      value !== null &&
      typeof (value as { path?: unknown }).path === "string") ||
    isProcedure(value)
  );
}
