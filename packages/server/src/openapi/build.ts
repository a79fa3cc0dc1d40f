import type { HttpRouteManifest, ProcedureManifest } from "../manifest/manifest.ts";
import { splitProcedurePath } from "../procedures/references.ts";
import { type RestMethod, restRouteOf } from "../procedures/rest-routes.ts";
import { REST_ERROR_CODES, SUCCESS_HEADERS, sharedComponents } from "./components.ts";
import { addHttpOperations } from "./http-operations.ts";
import { camel, errorResponses, queryParameters } from "./operation-parts.ts";

/** Document-level options. */
export interface OpenApiOptions {
  title?: string;
  version?: string;
  description?: string;
  /** Where the API is served. @default [{ url: "/" }] */
  servers?: { url: string; description?: string }[];
}

/** An OpenAPI 3.1 document (plain JSON). */
export type OpenApiDocument = Record<string, unknown> & {
  openapi: "3.1.0";
  paths: Record<string, Record<string, unknown>>;
};

/** Stable operation ids: `messagesList` (POST of a query: `messagesListPost`). */
function operationIdOf(path: string, method: RestMethod, kind: string): string {
  const { namespace, name } = splitProcedurePath(path);
  const base = camel([...namespace.split("/"), name]);
  return kind === "query" && method === "POST" ? `${base}Post` : base;
}

function operation(
  entry: ProcedureManifest,
  method: RestMethod,
  tag: string,
): Record<string, unknown> {
  const hasArgs = Object.keys((entry.args.properties ?? {}) as object).length > 0;
  const requiredArgs = ((entry.args.required ?? []) as string[]).length > 0;
  const errorStatuses = Object.keys(REST_ERROR_CODES)
    .map(Number)
    .filter((status) => status !== 413 || method === "POST");
  const getNote =
    "Arguments come from the query string; each value is parsed as JSON when it is valid JSON, " +
    "so a string that looks like JSON arrives parsed: send such strings with POST.";
  const description = [entry.description, method === "GET" ? getNote : null]
    .filter(Boolean)
    .join("\n\n");
  return {
    operationId: operationIdOf(entry.path, method, entry.kind),
    tags: [tag],
    summary: entry.summary ?? `${entry.kind} ${entry.path}`,
    ...(description ? { description } : {}),
    "x-svc-procedure": entry.path,
    "x-svc-kind": entry.kind,
    parameters: [
      { $ref: "#/components/parameters/ShardKey" },
      { $ref: "#/components/parameters/ShardKeyHeader" },
      ...(method === "GET" ? queryParameters(entry.args) : []),
    ],
    ...(method === "POST" && hasArgs
      ? {
          requestBody: {
            required: requiredArgs,
            content: { "application/json": { schema: entry.args } },
          },
        }
      : {}),
    responses: {
      "200": {
        description: "The procedure's result as JSON (`null` when it returns nothing).",
        headers: SUCCESS_HEADERS,
        content: { "application/json": { schema: entry.output ?? {} } },
      },
      ...errorResponses(errorStatuses),
    },
    security: [{}, { sessionCookie: [] }, { bearerAuth: [] }, { apiKey: [] }],
  };
}

/**
 * Builds the OpenAPI 3.1 document of the exposed REST surface from the
 * procedure manifest. Paths and methods come from `restRouteOf`, the helper
 * the live router uses, so the document and the routes cannot drift.
 *
 * @example
 * ```ts
 * const document = buildOpenApi(manifestOf(functions), { title: "My app", version: "1.0.0" });
 * ```
 */
export function buildOpenApi(
  manifest: readonly ProcedureManifest[],
  options: OpenApiOptions = {},
  httpRoutes: readonly HttpRouteManifest[] = [],
): OpenApiDocument {
  const paths: Record<string, Record<string, unknown>> = {};
  const tags = new Set<string>();
  const seenIds = new Set<string>();
  addHttpOperations(paths, tags, seenIds, httpRoutes);
  for (const entry of manifest) {
    const route = restRouteOf(entry.path, entry);
    if (route === null) continue;
    const tag = splitProcedurePath(entry.path).namespace;
    tags.add(tag);
    const item: Record<string, unknown> = {};
    for (const method of route.methods) {
      const op = operation(entry, method, tag);
      if (seenIds.has(op.operationId as string))
        throw new Error(`svc: two REST operations would share the id ${op.operationId}`);
      seenIds.add(op.operationId as string);
      item[method.toLowerCase()] = op;
    }
    paths[route.restPath] = item;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: options.title ?? "svc REST API",
      version: options.version ?? "0.0.0",
      ...(options.description ? { description: options.description } : {}),
    },
    servers: options.servers ?? [{ url: "/" }],
    tags: [...tags].sort().map((name) => ({ name })),
    paths,
    components: sharedComponents(),
  };
}
