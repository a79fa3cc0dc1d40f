/**
 * Pieces of an OpenAPI operation that the REST emitter (`build.ts`) and the
 * HTTP actions' (`http-operations.ts`) both use: in a file of their own so
 * neither imports the other.
 */
import type { JsonSchema } from "../values/validator.ts";
import { errorResponseName } from "./components.ts";

/** `["messages", "list"]` → `messagesList`. */
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

/** Query parameters of a GET (or an HTTP action's query-string arguments). */
export function queryParameters(args: JsonSchema): Record<string, unknown>[] {
  const properties = (args.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((args.required ?? []) as string[]);
  return Object.entries(properties).map(([name, schema]) => {
    const plainString = schema.type === "string";
    return {
      name,
      in: "query",
      required: required.has(name),
      ...(typeof schema.description === "string" ? { description: schema.description } : {}),
      // Values are parsed as JSON when they are valid JSON; non-string values are documented as such.
      ...(plainString ||
      schema.type === "number" ||
      schema.type === "integer" ||
      schema.type === "boolean"
        ? { schema }
        : { content: { "application/json": { schema } } }),
    };
  });
}

/** `$ref`s to the shared problem-details responses for these statuses. */
export function errorResponses(statuses: readonly number[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const status of statuses)
    out[String(status)] = { $ref: `#/components/responses/${errorResponseName(status)}` };
  return out;
}
