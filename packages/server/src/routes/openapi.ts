import { ERROR_STATUS, type ErrorCode } from "../errors/error-codes.ts";
import type { JsonSchema } from "../values/validator.ts";
import { openApiPathOf, paramNamesOf } from "./contract/pattern.ts";
import { isRawBody, isValidatorAnswer, type RouteGroup, type RouteSpec } from "./contract/route.ts";
import { routeErrorCodes } from "./error-codes.ts";
import { problemResponse, problemSchemas } from "./problem-schemas.ts";
import { schemaWithRefs } from "./schema-walk.ts";

/** Options of {@link routesOpenApi}. */
export interface RoutesOpenApiOptions {
  title: string;
  version: string;
  description?: string;
  /** @default [{ url: "/" }] */
  servers?: { url: string; description?: string }[];
  /** The bearer credential every route needs (the admin token), as a security scheme. */
  bearer?: { name: string; description: string };
  /** Codes every route may answer beyond its own (the gate's `UNAUTHENTICATED`). */
  always?: readonly ErrorCode[];
  /** Leaves out routes that do not exist here (a capability that is off). */
  include?: (spec: RouteSpec) => boolean;
}

/** An OpenAPI 3.1 document (plain JSON). */
export type RoutesOpenApiDocument = Record<string, unknown> & {
  openapi: "3.1.0";
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, unknown>;
};

function errorResponses(codes: readonly ErrorCode[]): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<string, unknown> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const headers: Record<string, unknown> = {};
    if (list.includes("UNAUTHENTICATED"))
      headers["WWW-Authenticate"] = { schema: { type: "string" }, description: "`Bearer`." };
    if (list.includes("METHOD_NOT_ALLOWED"))
      headers.Allow = { schema: { type: "string" }, description: "Methods this route accepts." };
    if (list.includes("RATE_LIMITED"))
      headers["Retry-After"] = { schema: { type: "integer", minimum: 1 }, description: "Seconds." };
    out[String(status)] = problemResponse(status, list, headers);
  }
  return out;
}

function content(
  map: Readonly<Record<string, Parameters<typeof schemaWithRefs>[0]>>,
  components: Record<string, JsonSchema>,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(map).map(([type, validator]) => [
      type,
      { schema: schemaWithRefs(validator, components) },
    ]),
  );
}

function operation(
  name: string,
  spec: RouteSpec,
  tag: string,
  components: Record<string, JsonSchema>,
  always: readonly ErrorCode[],
): Record<string, unknown> {
  const parameters = [
    ...paramNamesOf(spec.path).map((param) => ({
      name: param === "*" ? "path" : param,
      in: "path",
      required: true,
      schema: { type: "string", minLength: 1 },
    })),
    ...Object.entries(spec.query?.shape ?? {}).map(([param, field]) => ({
      name: param,
      in: "query",
      required: !field.isOptional,
      schema: schemaWithRefs(field, components),
    })),
  ];
  let requestBody: Record<string, unknown> | undefined;
  if (spec.body !== undefined) {
    requestBody = isRawBody(spec.body)
      ? {
          required: true,
          description: spec.body.description,
          content: content(spec.body.content, components),
        }
      : {
          required: false,
          content: { "application/json": { schema: schemaWithRefs(spec.body, components) } },
        };
  }
  const answer = spec.answer;
  const success = isValidatorAnswer(answer)
    ? {
        description: spec.summary,
        content: { "application/json": { schema: schemaWithRefs(answer, components) } },
      }
    : answer.kind === "file"
      ? { description: answer.description, content: content(answer.content, components) }
      : { description: answer.description, content: { "application/json": { schema: {} } } };
  return {
    operationId: name,
    tags: [tag],
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    ...(spec.audit ? { "x-svc-audit-action": spec.audit } : {}),
    ...(spec.requires ? { "x-svc-requires": spec.requires } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: {
      [String(spec.status ?? 200)]: success,
      ...errorResponses(routeErrorCodes(spec, always)),
    },
  };
}

/**
 * The OpenAPI 3.1 document of declared route groups: one operation per
 * route (`operationId` = its name in the table), path and query parameters
 * and the body from the validators, the success answer, a problem-details
 * response per status listing exactly the codes the route can answer, named
 * schemas under `components.schemas`, and the bearer scheme.
 *
 * @example
 * ```ts
 * const document = routesOpenApi([adminAuthRoutes], {
 *   title: "svc admin API", version: "1", bearer: { name: "adminToken", description: "SVC_ADMIN_TOKEN" },
 *   always: ["UNAUTHENTICATED"],
 * });
 * ```
 */
export function routesOpenApi(
  groups: readonly RouteGroup[],
  options: RoutesOpenApiOptions,
): RoutesOpenApiDocument {
  const schemas: Record<string, JsonSchema> = problemSchemas({
    data: "Extra data about the error (`authCode`, `omittedIssues`, …).",
    pathExamples: ["body.role", "query.limit"],
  });
  const paths: Record<string, Record<string, unknown>> = {};
  const tags = new Set<string>();
  for (const group of groups) {
    for (const [name, spec] of Object.entries(group.routes)) {
      if (options.include !== undefined && !options.include(spec)) continue;
      tags.add(group.tag);
      const path = openApiPathOf(`${group.prefix}${spec.path}`);
      const item = paths[path] ?? {};
      paths[path] = item;
      item[spec.method.toLowerCase()] = operation(
        name,
        spec,
        group.tag,
        schemas,
        options.always ?? [],
      );
    }
  }
  const bearer = options.bearer;
  return {
    openapi: "3.1.0",
    info: {
      title: options.title,
      version: options.version,
      ...(options.description ? { description: options.description } : {}),
    },
    servers: options.servers ?? [{ url: "/" }],
    ...(bearer ? { security: [{ [bearer.name]: [] }] } : {}),
    tags: [...tags].sort().map((name) => ({ name })),
    paths,
    components: {
      schemas,
      ...(bearer
        ? {
            securitySchemes: {
              [bearer.name]: { type: "http", scheme: "bearer", description: bearer.description },
            },
          }
        : {}),
    },
  };
}
