import type { HttpRouteManifest } from "../manifest/manifest.ts";
import { REST_ERROR_CODES } from "./components.ts";
import { camel, errorResponses, queryParameters } from "./operation-parts.ts";

const ARGS_IN_QUERY = new Set(["GET", "HEAD", "DELETE"]);

/** `/api/users/:id/*` → `/api/users/{id}/{path}` (OpenAPI's template syntax). */
function openApiPath(pattern: string): string {
  return pattern.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, "{$1}").replace(/\*$/, "{path}");
}

function pathParameters(pattern: string): Record<string, unknown>[] {
  const names = [...pattern.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!);
  if (pattern.endsWith("*")) names.push("path");
  return names.map((name) => ({ name, in: "path", required: true, schema: { type: "string" } }));
}

/**
 * Adds the HTTP actions that declare `.input()` to an OpenAPI document's
 * `paths`, tagged `http`. Actions without validators are the app's own
 * business (their answer is any `Response`) and stay out.
 */
export function addHttpOperations(
  paths: Record<string, Record<string, unknown>>,
  tags: Set<string>,
  seenIds: Set<string>,
  routes: readonly HttpRouteManifest[],
): void {
  for (const route of routes) {
    if (route.args === null) continue;
    tags.add("http");
    const operationId = camel([route.method.toLowerCase(), ...route.pattern.split("/")]);
    if (seenIds.has(operationId))
      throw new Error(`svc: two operations would share the id ${operationId}`);
    seenIds.add(operationId);
    const inQuery = ARGS_IN_QUERY.has(route.method);
    const hasArgs = Object.keys((route.args.properties ?? {}) as object).length > 0;
    const statuses = Object.keys(REST_ERROR_CODES)
      .map(Number)
      .filter((status) => status !== 429 && (status !== 413 || !inQuery));
    const path = openApiPath(route.pattern);
    const item = paths[path] ?? {};
    paths[path] = item;
    item[route.method.toLowerCase()] = {
      operationId,
      tags: ["http"],
      summary: route.summary ?? `${route.method} ${route.pattern}`,
      ...(route.description ? { description: route.description } : {}),
      "x-svc-http-action": `${route.method} ${route.pattern}`,
      parameters: [
        ...pathParameters(route.pattern),
        ...(inQuery ? queryParameters(route.args) : []),
      ],
      ...(!inQuery && hasArgs
        ? {
            requestBody: {
              required: ((route.args.required ?? []) as string[]).length > 0,
              content: { "application/json": { schema: route.args } },
            },
          }
        : {}),
      responses: {
        "200": { description: "The action's response." },
        ...errorResponses(statuses),
      },
      security: [{}, { sessionCookie: [] }, { bearerAuth: [] }, { apiKey: [] }],
    };
  }
}
