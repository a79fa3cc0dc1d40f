/**
 * Reads an OpenAPI 3.1 document into what the API page shows: operations
 * grouped by tag, `$ref`s resolved, shared parameters and error responses
 * pulled out so each operation shows only what is its own. Pure and
 * tolerant (a field of the wrong shape is skipped, never thrown on), so it
 * is unit-tested in Node against the example app's generated document.
 */

import { deref, isObject, refName, type Schema } from "./json-schema.ts";

/** A parameter of one operation. `shared` means it is a `components.parameters` entry. */
export interface ParameterView {
  name: string;
  in: string;
  required: boolean;
  description: string;
  schema: Schema | undefined;
  shared: boolean;
}

/** One response of one operation. `shared` names its `components.responses` entry. */
export interface ResponseView {
  status: string;
  description: string;
  mediaType: string | undefined;
  schema: Schema | undefined;
  headers: { name: string; description: string }[];
  shared: string | undefined;
}

/** One method on one path. */
export interface OperationView {
  anchor: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  deprecated: boolean;
  /** `x-svc-procedure` / `x-svc-kind`: the procedure behind a REST route. */
  procedure: string | undefined;
  kind: string | undefined;
  parameters: ParameterView[];
  requestBody: { required: boolean; mediaType: string; schema: Schema | undefined } | undefined;
  responses: ResponseView[];
  /** Schemes any of which authorizes the call; `[]` inside means "anonymous allowed". */
  security: string[][];
}

/** Operations under one tag, in document order. */
export interface TagGroup {
  name: string;
  description: string;
  operations: OperationView[];
}

/** The whole document, ready to render. */
export interface ApiReference {
  title: string;
  version: string;
  description: string;
  servers: string[];
  securitySchemes: { name: string; summary: string; description: string }[];
  sharedParameters: ParameterView[];
  sharedResponses: ResponseView[];
  groups: TagGroup[];
  operationCount: number;
  document: Schema;
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
const UNTAGGED = "other";

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function firstContent(node: Schema): { mediaType: string; schema: Schema | undefined } | undefined {
  if (!isObject(node.content)) return undefined;
  const [entry] = Object.entries(node.content);
  if (entry === undefined) return undefined;
  const [mediaType, media] = entry;
  return {
    mediaType,
    schema: isObject(media) && isObject(media.schema) ? media.schema : undefined,
  };
}

function parameterOf(document: Schema, node: unknown): ParameterView | undefined {
  const parameter = deref(document, node);
  if (parameter === undefined || typeof parameter.name !== "string") return undefined;
  return {
    name: parameter.name,
    in: text(parameter.in),
    required: parameter.required === true,
    description: text(parameter.description),
    schema: isObject(parameter.schema) ? parameter.schema : undefined,
    shared: isObject(node) && typeof node.$ref === "string",
  };
}

function responseOf(document: Schema, status: string, node: unknown): ResponseView | undefined {
  const response = deref(document, node);
  if (response === undefined) return undefined;
  const content = firstContent(response);
  const headers = isObject(response.headers)
    ? Object.entries(response.headers).map(([name, header]) => ({
        name,
        description: text(deref(document, header)?.description),
      }))
    : [];
  return {
    status,
    description: text(response.description),
    mediaType: content?.mediaType,
    schema: content?.schema,
    headers,
    shared: isObject(node) && typeof node.$ref === "string" ? refName(node.$ref) : undefined,
  };
}

function securityOf(value: unknown): string[][] {
  if (!Array.isArray(value)) return [];
  return value.filter(isObject).map((requirement) => Object.keys(requirement));
}

function anchorOf(method: string, path: string, operationId: unknown): string {
  const base = typeof operationId === "string" ? operationId : `${method}-${path}`;
  return `op-${base.replace(/[^A-Za-z0-9_-]+/g, "-")}`;
}

function operationOf(
  document: Schema,
  method: string,
  path: string,
  operation: Schema,
  pathParameters: unknown[],
  defaultSecurity: unknown,
): OperationView {
  const parameters = [
    ...pathParameters,
    ...(Array.isArray(operation.parameters) ? operation.parameters : []),
  ]
    .map((node) => parameterOf(document, node))
    .filter((parameter): parameter is ParameterView => parameter !== undefined);
  const body = deref(document, operation.requestBody);
  const content = body ? firstContent(body) : undefined;
  const responses = isObject(operation.responses)
    ? Object.entries(operation.responses)
        .map(([status, node]) => responseOf(document, status, node))
        .filter((response): response is ResponseView => response !== undefined)
    : [];
  return {
    anchor: anchorOf(method, path, operation.operationId),
    method: method.toUpperCase(),
    path,
    summary: text(operation.summary),
    description: text(operation.description),
    deprecated: operation.deprecated === true,
    procedure:
      typeof operation["x-svc-procedure"] === "string" ? operation["x-svc-procedure"] : undefined,
    kind: typeof operation["x-svc-kind"] === "string" ? operation["x-svc-kind"] : undefined,
    parameters,
    requestBody: content
      ? { required: body?.required === true, mediaType: content.mediaType, schema: content.schema }
      : undefined,
    responses,
    security: securityOf(operation.security ?? defaultSecurity),
  };
}

function schemeSummary(scheme: Schema): string {
  if (scheme.type === "http") return `HTTP ${text(scheme.scheme)}`.trim();
  if (scheme.type === "apiKey") return `${text(scheme.in)} ${text(scheme.name)}`.trim();
  return text(scheme.type);
}

/**
 * The API reference of a document. Throws an `Error` saying what is wrong
 * when the value is not an OpenAPI 3.x document.
 */
export function readApiReference(value: unknown): ApiReference {
  if (!isObject(value) || typeof value.openapi !== "string" || !value.openapi.startsWith("3.")) {
    throw new Error("The server's REST OpenAPI answer (restOpenApi) is not an OpenAPI 3 document.");
  }
  const document = value;
  const info = isObject(document.info) ? document.info : {};
  const components = isObject(document.components) ? document.components : {};
  const groups = new Map<string, TagGroup>();
  for (const tag of Array.isArray(document.tags) ? document.tags.filter(isObject) : []) {
    if (typeof tag.name !== "string") continue;
    groups.set(tag.name, { name: tag.name, description: text(tag.description), operations: [] });
  }
  let operationCount = 0;
  for (const [path, item] of Object.entries(isObject(document.paths) ? document.paths : {})) {
    if (!isObject(item)) continue;
    const pathParameters = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const view = operationOf(
        document,
        method,
        path,
        operation,
        pathParameters,
        document.security,
      );
      const tags = Array.isArray(operation.tags)
        ? operation.tags.filter((tag) => typeof tag === "string")
        : [];
      for (const tag of tags.length > 0 ? tags : [UNTAGGED]) {
        const group = groups.get(tag) ?? { name: tag, description: "", operations: [] };
        group.operations.push(view);
        groups.set(tag, group);
      }
      operationCount++;
    }
  }
  const schemes = isObject(components.securitySchemes) ? components.securitySchemes : {};
  return {
    title: text(info.title) || "API",
    version: text(info.version),
    description: text(info.description),
    servers: (Array.isArray(document.servers) ? document.servers : [])
      .filter(isObject)
      .map((server) => text(server.url))
      .filter((url) => url !== ""),
    securitySchemes: Object.entries(schemes)
      .filter((entry): entry is [string, Schema] => isObject(entry[1]))
      .map(([name, scheme]) => ({
        name,
        summary: schemeSummary(scheme),
        description: text(scheme.description),
      })),
    sharedParameters: Object.keys(isObject(components.parameters) ? components.parameters : {})
      .map((name) => parameterOf(document, { $ref: `#/components/parameters/${name}` }))
      .filter((parameter): parameter is ParameterView => parameter !== undefined),
    sharedResponses: Object.keys(isObject(components.responses) ? components.responses : {})
      .map((name) => responseOf(document, name, { $ref: `#/components/responses/${name}` }))
      .filter((response): response is ResponseView => response !== undefined),
    groups: [...groups.values()].filter((group) => group.operations.length > 0),
    operationCount,
    document,
  };
}

/** Operations whose method, path, summary, procedure or tag contain `query` (case-insensitive). */
export function filterGroups(groups: TagGroup[], query: string): TagGroup[] {
  const needle = query.trim().toLowerCase();
  if (needle === "") return groups;
  return groups
    .map((group) => ({
      ...group,
      operations: group.operations.filter((operation) =>
        [group.name, operation.method, operation.path, operation.summary, operation.procedure ?? ""]
          .join(" ")
          .toLowerCase()
          .includes(needle),
      ),
    }))
    .filter((group) => group.operations.length > 0);
}
