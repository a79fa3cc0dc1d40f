import type { RouteGroup, RouteSpec } from "./route.ts";

/**
 * Route groups as one app serves them: the groups and which of their routes
 * exist here (a route whose capability is off answers 404 and is left out
 * of the documents). `createAuthAdmin(...).routes()` answers one for the
 * auth group; `createWorker` joins it to its own in the admin OpenAPI
 * document.
 *
 * @example
 * ```ts
 * const published: PublishedRoutes = { groups: [notes], include: (spec) => spec.requires === undefined };
 * ```
 */
export interface PublishedRoutes {
  readonly groups: readonly RouteGroup[];
  /** Whether a route exists here; absent: every route does. */
  readonly include?: (spec: RouteSpec) => boolean;
}
