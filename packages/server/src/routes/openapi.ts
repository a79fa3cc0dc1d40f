import type { ErrorCode } from "../errors/error-codes.ts";
import type { AnyValidator, JsonSchema } from "../values/validator.ts";
import { openApiPathOf } from "./contract/pattern.ts";
import { isRawBody, isValidatorAnswer, type RouteGroup, type RouteSpec } from "./contract/route.ts";
import { routeErrorCodes } from "./error-codes.ts";
import {
  type ContentDraft,
  type EmittedDocument,
  type OperationDraft,
  openApiDocument,
  type PlacedOperation,
  pathParameters,
} from "./openapi-emit.ts";
import { problemSchemas } from "./problem-schemas.ts";
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
export type RoutesOpenApiDocument = EmittedDocument;

function contentOf(
  map: Readonly<Record<string, AnyValidator>>,
  components: Record<string, JsonSchema>,
): ContentDraft {
  return Object.fromEntries(
    Object.entries(map).map(([type, validator]) => [type, schemaWithRefs(validator, components)]),
  );
}

function operationDraft(
  name: string,
  spec: RouteSpec,
  tag: string,
  components: Record<string, JsonSchema>,
  always: readonly ErrorCode[],
): OperationDraft {
  const { body, answer } = spec;
  return {
    operationId: name,
    tag,
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    extensions: {
      ...(spec.audit ? { "x-svc-audit-action": spec.audit } : {}),
      ...(spec.requires ? { "x-svc-requires": spec.requires } : {}),
    },
    parameters: [
      ...pathParameters(spec.path, { type: "string", minLength: 1 }),
      ...Object.entries(spec.query?.shape ?? {}).map(([param, field]) => ({
        name: param,
        in: "query" as const,
        required: !field.isOptional,
        schema: schemaWithRefs(field, components),
      })),
    ],
    ...(body === undefined
      ? {}
      : {
          body: isRawBody(body)
            ? {
                required: true,
                description: body.description,
                content: contentOf(body.content, components),
              }
            : {
                required: false,
                content: { "application/json": schemaWithRefs(body, components) },
              },
        }),
    success: {
      status: spec.status ?? 200,
      ...(isValidatorAnswer(answer)
        ? {
            description: spec.summary,
            content: { "application/json": schemaWithRefs(answer, components) },
          }
        : {
            description: answer.description,
            content:
              answer.kind === "file"
                ? contentOf(answer.content, components)
                : { "application/json": {} },
          }),
    },
    problems: { codes: routeErrorCodes(spec, always), headers: { challenge: "Bearer" } },
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
  const operations: PlacedOperation[] = [];
  for (const group of groups) {
    for (const [name, spec] of Object.entries(group.routes)) {
      if (options.include !== undefined && !options.include(spec)) continue;
      operations.push({
        path: openApiPathOf(`${group.prefix}${spec.path}`),
        method: spec.method,
        operation: operationDraft(name, spec, group.tag, schemas, options.always ?? []),
      });
    }
  }
  const bearer = options.bearer;
  return openApiDocument(
    {
      title: options.title,
      version: options.version,
      ...(options.description ? { description: options.description } : {}),
      servers: options.servers ?? [{ url: "/" }],
      ...(bearer ? { security: [{ [bearer.name]: [] }] } : {}),
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
    },
    operations,
  );
}
