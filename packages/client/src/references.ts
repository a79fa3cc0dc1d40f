import type { FunctionReference } from "@svc/server";

/** The arguments type of a reference from `svc/_generated/api.ts`. */
export type ArgsOf<Ref> =
  Ref extends FunctionReference<infer _K, infer _V, infer Args, infer _O> ? Args : never;

/** The result type of a reference from `svc/_generated/api.ts`. */
export type OutputOf<Ref> =
  Ref extends FunctionReference<infer _K, infer _V, infer _A, infer Output> ? Output : never;

/** A public reference of the given kind (what clients may call). */
export type PublicRef<Kind extends "query" | "mutation" | "action" | "stream"> = {
  readonly path: string;
  readonly kind: Kind;
  readonly visibility: "public";
};
