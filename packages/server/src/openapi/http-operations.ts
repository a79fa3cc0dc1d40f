import type { HttpRouteManifest } from "../manifest/manifest.ts";
import { openApiPathOf } from "../routes/contract/pattern.ts";
import { type PlacedOperation, pathParameters } from "../routes/openapi-emit.ts";
import { REST_ERROR_CODES, REST_SECURITY } from "./components.ts";
import { camel, jsonBody, queryParameters } from "./operation-parts.ts";

const ARGS_IN_QUERY = new Set(["GET", "HEAD", "DELETE"]);

/**
 * The operations of the HTTP actions that declare `.input()`, tagged
 * `http`. Actions without validators are the app's own business (their
 * answer is any `Response`) and stay out.
 *
 * @example
 * ```ts
 * const operations = httpOperations(manifest.http ?? []); // [{ path: "/notes", method: "POST", … }]
 * ```
 */
export function httpOperations(routes: readonly HttpRouteManifest[]): PlacedOperation[] {
  return routes.flatMap((route): PlacedOperation[] => {
    if (route.args === null) return [];
    const inQuery = ARGS_IN_QUERY.has(route.method);
    return [
      {
        path: openApiPathOf(route.pattern),
        method: route.method,
        operation: {
          operationId: camel([route.method.toLowerCase(), ...route.pattern.split("/")]),
          tag: "http",
          summary: route.summary ?? `${route.method} ${route.pattern}`,
          ...(route.description ? { description: route.description } : {}),
          extensions: { "x-svc-http-action": `${route.method} ${route.pattern}` },
          parameters: [
            ...pathParameters(route.pattern, { type: "string" }),
            ...(inQuery ? queryParameters(route.args) : []),
          ],
          ...(inQuery ? {} : jsonBody(route.args)),
          success: { description: "The action's response." },
          problems: {
            shared: Object.keys(REST_ERROR_CODES)
              .map(Number)
              .filter((status) => status !== 429 && (status !== 413 || !inQuery)),
          },
          security: REST_SECURITY,
        },
      },
    ];
  });
}
