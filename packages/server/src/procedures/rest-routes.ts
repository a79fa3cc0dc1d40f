import type { ProcedureKind, Visibility } from "../model/call-meta.ts";
import { splitProcedurePath } from "./references.ts";

/** Prefix of every public REST route. */
export const REST_PREFIX = "/_svc/rest/";

/** An HTTP method a REST route accepts. */
export type RestMethod = "GET" | "POST";

/** The facts both a live procedure and its codegen manifest carry. */
export interface Exposable {
  kind: ProcedureKind;
  visibility: Visibility;
  rest: boolean;
}

/** Where and how a procedure is published on REST. */
export interface RestRoute {
  /** `/_svc/rest/<namespace>/<function>`. */
  restPath: string;
  methods: readonly RestMethod[];
}

const QUERY_METHODS: readonly RestMethod[] = Object.freeze(["GET", "POST"]);
const WRITE_METHODS: readonly RestMethod[] = Object.freeze(["POST"]);

/**
 * The one mapping from a procedure to its REST route, used by the router and
 * by the OpenAPI emitter, so the published document matches what is routable.
 * `null` unless the procedure is a public query, mutation or action marked
 * `.expose({ rest: true })` (default closed).
 */
export function restRouteOf(path: string, procedure: Exposable): RestRoute | null {
  if (!procedure.rest || procedure.visibility !== "public" || procedure.kind === "stream")
    return null;
  const { namespace, name } = splitProcedurePath(path);
  return {
    restPath: `${REST_PREFIX}${namespace}/${name}`,
    methods: procedure.kind === "query" ? QUERY_METHODS : WRITE_METHODS,
  };
}

/**
 * A routed procedure: its route, its registry path, the procedure and its
 * kind (with `path`, what an API key's scopes are checked against).
 */
export type RoutedProcedure<P extends Exposable> = RestRoute & {
  path: string;
  procedure: P;
  kind: ProcedureKind;
};

/** Every REST route of a set of procedures, keyed by REST path. */
export function restRoutes<P extends Exposable>(
  procedures: Readonly<Record<string, P>>,
): Map<string, RoutedProcedure<P>> {
  const routes = new Map<string, RoutedProcedure<P>>();
  for (const [path, procedure] of Object.entries(procedures)) {
    const route = restRouteOf(path, procedure);
    if (route !== null)
      routes.set(route.restPath, { ...route, path, procedure, kind: procedure.kind });
  }
  return routes;
}
