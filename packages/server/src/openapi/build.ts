import type { HttpRouteManifest, ProcedureManifest } from "../manifest/manifest.ts";
import { splitProcedurePath } from "../procedures/references.ts";
import { type RestMethod, restRouteOf } from "../procedures/rest-routes.ts";
import {
  type EmittedDocument,
  type OperationDraft,
  openApiDocument,
} from "../routes/openapi-emit.ts";
import {
  REST_ERROR_CODES,
  REST_SECURITY,
  SUCCESS_HEADERS,
  sharedComponents,
} from "./components.ts";
import { httpOperations } from "./http-operations.ts";
import { camel, jsonBody, queryParameters } from "./operation-parts.ts";

/** Document-level options. */
export interface OpenApiOptions {
  title?: string;
  version?: string;
  description?: string;
  /** Where the API is served. @default [{ url: "/" }] */
  servers?: { url: string; description?: string }[];
}

/** An OpenAPI 3.1 document (plain JSON). */
export type OpenApiDocument = EmittedDocument;

/** Stable operation ids: `messagesList` (POST of a query: `messagesListPost`). */
function operationIdOf(path: string, method: RestMethod, kind: string): string {
  const { namespace, name } = splitProcedurePath(path);
  const base = camel([...namespace.split("/"), name]);
  return kind === "query" && method === "POST" ? `${base}Post` : base;
}

const GET_NOTE =
  "Arguments come from the query string; each value is parsed as JSON when it is valid JSON, " +
  "so a string that looks like JSON arrives parsed: send such strings with POST.";

function operation(entry: ProcedureManifest, method: RestMethod, tag: string): OperationDraft {
  const description = [entry.description, method === "GET" ? GET_NOTE : null]
    .filter(Boolean)
    .join("\n\n");
  return {
    operationId: operationIdOf(entry.path, method, entry.kind),
    tag,
    summary: entry.summary ?? `${entry.kind} ${entry.path}`,
    ...(description ? { description } : {}),
    extensions: { "x-svc-procedure": entry.path, "x-svc-kind": entry.kind },
    parameterRefs: ["ShardKey", "ShardKeyHeader"],
    parameters: method === "GET" ? queryParameters(entry.args) : [],
    ...(method === "POST" ? jsonBody(entry.args) : {}),
    success: {
      description: "The procedure's result as JSON (`null` when it returns nothing).",
      headers: SUCCESS_HEADERS,
      content: { "application/json": entry.output ?? {} },
    },
    problems: {
      shared: Object.keys(REST_ERROR_CODES)
        .map(Number)
        .filter((status) => status !== 413 || method === "POST"),
    },
    security: REST_SECURITY,
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
  const operations = httpOperations(httpRoutes);
  for (const entry of manifest) {
    const route = restRouteOf(entry.path, entry);
    if (route === null) continue;
    const tag = splitProcedurePath(entry.path).namespace;
    for (const method of route.methods)
      operations.push({ path: route.restPath, method, operation: operation(entry, method, tag) });
  }
  return openApiDocument(
    {
      title: options.title ?? "svc REST API",
      version: options.version ?? "0.0.0",
      ...(options.description ? { description: options.description } : {}),
      servers: options.servers ?? [{ url: "/" }],
      components: sharedComponents(),
    },
    operations,
  );
}
