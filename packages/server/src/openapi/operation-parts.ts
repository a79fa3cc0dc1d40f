/**
 * Pieces of an operation draft that the REST emitter (`build.ts`) and the
 * HTTP actions' (`http-operations.ts`) both use: in a file of their own so
 * neither imports the other.
 */
import type { ParameterDraft } from "../routes/openapi-emit.ts";
import type { JsonSchema } from "../values/validator.ts";

/**
 * `["messages", "list"]` → `messagesList`: operation ids from path segments.
 *
 * @example
 * ```ts
 * camel(["get", "notes", ":id"]); // "getNotesId"
 * ```
 */
export function camel(segments: readonly string[]): string {
  return segments
    .flatMap((segment) => segment.split(/[^A-Za-z0-9]+/))
    .filter(Boolean)
    .map((part, index) =>
      index === 0
        ? part.charAt(0).toLowerCase() + part.slice(1)
        : part.charAt(0).toUpperCase() + part.slice(1),
    )
    .join("");
}

const PLAIN_TYPES = new Set(["string", "number", "integer", "boolean"]);

/**
 * Query parameters of a GET (or an HTTP action's query-string arguments):
 * values are parsed as JSON when they are valid JSON, so any but a plain
 * string, number or boolean is documented as JSON content.
 *
 * @example
 * ```ts
 * queryParameters({ type: "object", properties: { limit: { type: "integer" } } }); // [{ name: "limit", in: "query", … }]
 * ```
 */
export function queryParameters(args: JsonSchema): ParameterDraft[] {
  const properties = (args.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((args.required ?? []) as string[]);
  return Object.entries(properties).map(([name, schema]) => ({
    name,
    in: "query",
    required: required.has(name),
    ...(typeof schema.description === "string" ? { description: schema.description } : {}),
    schema,
    json: !PLAIN_TYPES.has(schema.type as string),
  }));
}

/**
 * The JSON request body of these arguments, or none when they have no
 * properties; required when any argument is.
 *
 * @example
 * ```ts
 * jsonBody({ type: "object", properties: { text: { type: "string" } }, required: ["text"] });
 * ```
 */
export function jsonBody(
  args: JsonSchema,
): { body: { required: boolean; content: { "application/json": JsonSchema } } } | undefined {
  if (Object.keys((args.properties ?? {}) as object).length === 0) return undefined;
  const required = ((args.required ?? []) as string[]).length > 0;
  return { body: { required, content: { "application/json": args } } };
}
