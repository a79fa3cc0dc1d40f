/**
 * The one writer of OpenAPI 3.1 operations and documents in svc: the app's
 * REST document (procedures and HTTP actions) and the admin documents (route
 * groups) both describe their operations as drafts in JSON Schema and let
 * this file write parameters, request bodies, the success answer and the
 * problem-details answers, so the two documents cannot drift apart in form.
 */
import { ERROR_STATUS, type ErrorCode } from "../errors/error-codes.ts";
import type { JsonSchema } from "../values/validator.ts";
import { paramNamesOf } from "./contract/pattern.ts";
import { problemResponse } from "./problem-schemas.ts";

/** One parameter of an operation. */
export interface ParameterDraft {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  description?: string;
  schema: JsonSchema;
  /** The value is read as JSON text: documented as `content`, not `schema`. */
  json?: boolean;
}

/** Media types of a body or an answer, each with its schema. */
export type ContentDraft = Readonly<Record<string, JsonSchema>>;

/**
 * Which problem-details answers an operation documents: `shared` statuses
 * point at the document's `components.responses` (see
 * {@link problemResponses}); `codes` are written inline, one answer a status.
 */
export type ProblemDraft =
  | { shared: readonly number[] }
  | { codes: readonly ErrorCode[]; headers?: ProblemHeaderOptions };

/** What a document says about the headers of its problem answers. */
export interface ProblemHeaderOptions {
  /** The `WWW-Authenticate` challenge a 401 carries (`Bearer`), when it carries one. */
  challenge?: string;
  /** Headers a 429 carries beside `Retry-After` (the `RateLimit-*` trio). */
  rateLimit?: Readonly<Record<string, unknown>>;
}

/** One way of authenticating: scheme names and their scopes (`{}` is anonymous). */
export type SecurityRequirement = Readonly<Record<string, readonly string[]>>;

/** One operation, its schemas already in JSON Schema. */
export interface OperationDraft {
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  /** `x-svc-*` members: what the operation runs, what it needs. */
  extensions?: Readonly<Record<`x-svc-${string}`, unknown>>;
  /** Shared parameters (`#/components/parameters/…` names) first, then these. */
  parameterRefs?: readonly string[];
  parameters: readonly ParameterDraft[];
  body?: { required: boolean; description?: string; content: ContentDraft };
  success: {
    status?: number;
    description: string;
    headers?: Readonly<Record<string, unknown>>;
    content?: ContentDraft;
  };
  problems: ProblemDraft;
  security?: readonly SecurityRequirement[];
}

/** Where an operation is served. */
export interface PlacedOperation {
  path: string;
  method: string;
  operation: OperationDraft;
}

/** The document's own members. */
export interface DocumentDraft {
  title: string;
  version: string;
  description?: string;
  servers: readonly { url: string; description?: string }[];
  security?: readonly SecurityRequirement[];
  components: Record<string, unknown>;
}

/** An OpenAPI 3.1 document (plain JSON). */
export type EmittedDocument = Record<string, unknown> & {
  openapi: "3.1.0";
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, unknown>;
};

/**
 * The path parameters of a route pattern (`:id`; a final `*` is `path`),
 * each a required string of the given schema.
 *
 * @example
 * ```ts
 * pathParameters("/notes/:id", { type: "string" }); // [{ name: "id", in: "path", required: true, … }]
 * ```
 */
export function pathParameters(pattern: string, schema: JsonSchema): ParameterDraft[] {
  return paramNamesOf(pattern).map((name) => ({
    name: name === "*" ? "path" : name,
    in: "path",
    required: true,
    schema: { ...schema },
  }));
}

function parameterOf(draft: ParameterDraft): Record<string, unknown> {
  return {
    name: draft.name,
    in: draft.in,
    required: draft.required,
    ...(draft.description !== undefined ? { description: draft.description } : {}),
    ...(draft.json
      ? { content: { "application/json": { schema: draft.schema } } }
      : { schema: draft.schema }),
  };
}

function contentOf(content: ContentDraft): Record<string, unknown> {
  return Object.fromEntries(Object.entries(content).map(([type, schema]) => [type, { schema }]));
}

/**
 * The headers a problem answer of this status carries: `Allow` on a 405,
 * `Retry-After` (and the document's rate-limit headers) on a 429, the
 * document's challenge on a 401.
 */
function problemHeaders(status: number, options: ProblemHeaderOptions): Record<string, unknown> {
  const headers: Record<string, unknown> = {};
  if (status === 401 && options.challenge !== undefined)
    headers["WWW-Authenticate"] = {
      description: `\`${options.challenge}\`.`,
      schema: { type: "string" },
    };
  if (status === 405)
    headers.Allow = { description: "Methods this route accepts.", schema: { type: "string" } };
  if (status === 429) {
    headers["Retry-After"] = {
      description: "Whole seconds to wait (at least 1).",
      schema: { type: "integer", minimum: 1 },
    };
    Object.assign(headers, options.rateLimit ?? {});
  }
  return headers;
}

/**
 * The problem-details answers of these codes, one a status (ascending), each
 * listing exactly its codes: inline in an operation, or a document's shared
 * `components.responses` (named by {@link problemResponseName}).
 *
 * @example
 * ```ts
 * problemResponses(["NOT_FOUND", "UNAUTHENTICATED"], { challenge: "Bearer" }); // { "401": …, "404": … }
 * ```
 */
export function problemResponses(
  codes: readonly ErrorCode[],
  options: ProblemHeaderOptions = {},
): Record<string, Record<string, unknown>> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<string, Record<string, unknown>> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b))
    out[String(status)] = problemResponse(status, list, problemHeaders(status, options));
  return out;
}

/**
 * Name of a document's shared problem answer for a status
 * (`#/components/responses/Error404`).
 *
 * @example
 * ```ts
 * problemResponseName(404); // "Error404"
 * ```
 */
export function problemResponseName(status: number): string {
  return `Error${status}`;
}

/**
 * Writes one operation: its parameters, always listed (shared ones by
 * `$ref`, JSON-valued ones as `content`), the request body, the success answer and the problem
 * answers, with the `x-svc-*` members after the summary.
 *
 * @example
 * ```ts
 * const op = openApiOperation({
 *   operationId: "notesList", tag: "notes", summary: "query notes/list",
 *   parameters: [], success: { description: "The notes." }, problems: { codes: ["NOT_FOUND"] },
 * });
 * ```
 */
export function openApiOperation(draft: OperationDraft): Record<string, unknown> {
  const parameters = [
    ...(draft.parameterRefs ?? []).map((name) => ({ $ref: `#/components/parameters/${name}` })),
    ...draft.parameters.map(parameterOf),
  ];
  const { success, body, problems } = draft;
  const problemAnswers =
    "shared" in problems
      ? Object.fromEntries(
          problems.shared.map((status) => [
            String(status),
            { $ref: `#/components/responses/${problemResponseName(status)}` },
          ]),
        )
      : problemResponses(problems.codes, problems.headers);
  return {
    operationId: draft.operationId,
    tags: [draft.tag],
    summary: draft.summary,
    ...(draft.description ? { description: draft.description } : {}),
    ...draft.extensions,
    parameters,
    ...(body
      ? {
          requestBody: {
            required: body.required,
            ...(body.description !== undefined ? { description: body.description } : {}),
            content: contentOf(body.content),
          },
        }
      : {}),
    responses: {
      [String(success.status ?? 200)]: {
        description: success.description,
        ...(success.headers ? { headers: success.headers } : {}),
        ...(success.content ? { content: contentOf(success.content) } : {}),
      },
      ...problemAnswers,
    },
    ...(draft.security ? { security: draft.security } : {}),
  };
}

/**
 * Writes a whole OpenAPI 3.1 document: its operations under their paths
 * (sorted tags, one `operationId` each: a second use throws, naming it),
 * with the given components and document-wide security.
 *
 * @example
 * ```ts
 * const document = openApiDocument(
 *   { title: "Notes", version: "1", servers: [{ url: "/" }], components: {} },
 *   [{ path: "/notes", method: "GET", operation: draft }],
 * );
 * ```
 */
export function openApiDocument(
  document: DocumentDraft,
  operations: readonly PlacedOperation[],
): EmittedDocument {
  const paths: Record<string, Record<string, unknown>> = {};
  const tags = new Set<string>();
  const ids = new Set<string>();
  for (const { path, method, operation } of operations) {
    if (ids.has(operation.operationId))
      throw new Error(`svc: two OpenAPI operations would share the id ${operation.operationId}`);
    ids.add(operation.operationId);
    tags.add(operation.tag);
    const item = paths[path] ?? {};
    paths[path] = item;
    item[method.toLowerCase()] = openApiOperation(operation);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: document.title,
      version: document.version,
      ...(document.description ? { description: document.description } : {}),
    },
    servers: [...document.servers],
    ...(document.security ? { security: document.security } : {}),
    tags: [...tags].sort().map((name) => ({ name })),
    paths,
    components: document.components,
  };
}
