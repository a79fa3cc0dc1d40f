/**
 * Reads an OpenAPI 3.1 document into what the API page shows: operations
 * grouped by tag, `$ref`s resolved, shared parameters and error responses
 * pulled out so each operation shows only what is its own. Pure and
 * tolerant (a field of the wrong shape is skipped, never thrown on), so it
 * is unit-tested in Node against the example app's generated document.
 */

/** A JSON Schema (OpenAPI 3.1 dialect), read loosely. */
export type Schema = { readonly [key: string]: unknown };

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

/** True for a JSON object (not an array, not null): the shape every OpenAPI node has. */
export function isObject(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** The target of a local `$ref` (`#/components/schemas/Problem`), or undefined. */
export function resolveRef(document: Schema, ref: string): Schema | undefined {
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = document;
  for (const raw of ref.slice(2).split("/")) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (!isObject(node)) return undefined;
    node = node[key];
  }
  return isObject(node) ? node : undefined;
}

/** The last segment of a `$ref`: `#/components/schemas/Problem` → `Problem`. */
export function refName(ref: string): string {
  return ref.slice(ref.lastIndexOf("/") + 1);
}

/** Follows `$ref`s (a few hops at most) to the object they name. */
function deref(document: Schema, node: unknown): Schema | undefined {
  let current = node;
  for (let hop = 0; hop < 8 && isObject(current) && typeof current.$ref === "string"; hop++) {
    current = resolveRef(document, current.$ref);
  }
  return isObject(current) ? current : undefined;
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
    throw new Error("The server's /_svc/admin/openapi answer is not an OpenAPI 3 document.");
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

/** A one-line type for a schema: `string`, `integer | null`, `array of Message`, `"a" | "b"`. */
export function typeLabel(schema: Schema | undefined, document: Schema): string {
  if (schema === undefined) return "any";
  if (typeof schema.$ref === "string") return refName(schema.$ref);
  if ("const" in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum))
    return schema.enum.map((value) => JSON.stringify(value)).join(" | ");
  for (const key of ["oneOf", "anyOf"] as const) {
    const options = schema[key];
    if (Array.isArray(options)) {
      return options
        .map((option) => typeLabel(isObject(option) ? option : undefined, document))
        .join(" | ");
    }
  }
  if (Array.isArray(schema.allOf)) {
    const named = schema.allOf.find((part) => isObject(part) && typeof part.$ref === "string");
    return isObject(named) ? typeLabel(named, document) : "object";
  }
  const types = Array.isArray(schema.type)
    ? schema.type.map(String)
    : typeof schema.type === "string"
      ? [schema.type]
      : [];
  const labels = types.map((type) =>
    type === "array"
      ? `array of ${typeLabel(isObject(schema.items) ? schema.items : undefined, document)}`
      : type,
  );
  if (labels.length > 0) return labels.join(" | ");
  if (isObject(schema.properties)) return "object";
  return "any";
}

/** Validation facts worth showing beside a type: format, pattern, bounds, default. */
export function constraintsOf(schema: Schema | undefined): string[] {
  if (schema === undefined) return [];
  const facts: string[] = [];
  if (typeof schema.format === "string") facts.push(`format ${schema.format}`);
  if (typeof schema.pattern === "string") facts.push(`pattern ${schema.pattern}`);
  const bounds: [string, string][] = [
    ["minLength", "min length"],
    ["maxLength", "max length"],
    ["minimum", "≥"],
    ["maximum", "≤"],
    ["exclusiveMinimum", ">"],
    ["exclusiveMaximum", "<"],
    ["minItems", "min items"],
    ["maxItems", "max items"],
  ];
  for (const [key, label] of bounds) {
    if (typeof schema[key] === "number") facts.push(`${label} ${schema[key]}`);
  }
  if ("default" in schema) facts.push(`default ${JSON.stringify(schema.default)}`);
  return facts;
}

/** The properties of an object schema (through `allOf` and `$ref`), with required flags. */
export function propertiesOf(
  schema: Schema | undefined,
  document: Schema,
): { name: string; schema: Schema; required: boolean }[] {
  const target = deref(document, schema);
  if (target === undefined) return [];
  const required = new Set(Array.isArray(target.required) ? target.required.map(String) : []);
  const own = isObject(target.properties)
    ? Object.entries(target.properties)
        .filter((entry): entry is [string, Schema] => isObject(entry[1]))
        .map(([name, property]) => ({ name, schema: property, required: required.has(name) }))
    : [];
  if (!Array.isArray(target.allOf)) return own;
  const merged = new Map<string, { name: string; schema: Schema; required: boolean }>();
  for (const part of target.allOf) {
    for (const property of propertiesOf(isObject(part) ? part : undefined, document)) {
      const previous = merged.get(property.name);
      merged.set(property.name, {
        name: property.name,
        schema: previous ? { ...previous.schema, ...property.schema } : property.schema,
        required: property.required || (previous?.required ?? false),
      });
    }
  }
  for (const property of own) merged.set(property.name, property);
  return [...merged.values()];
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
