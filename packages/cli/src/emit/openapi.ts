import type { OpenApiDocument } from "@svc/server/codegen";
import { GENERATED_HEADER } from "./header.ts";

/** `_generated/openapi.json`: the OpenAPI 3.1 document of the exposed REST surface. */
export function emitOpenApiJson(document: OpenApiDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** `_generated/openapi.ts`: the same document as `openApiSpec`, for `createWorker({ openApiSpec })`. */
export function emitOpenApiModule(document: OpenApiDocument): string {
  return [
    GENERATED_HEADER,
    "/** The OpenAPI 3.1 document of the exposed REST surface; serve it with `createWorker({ openApiSpec })`. */",
    `export const openApiSpec = ${JSON.stringify(document, null, 2)} as const;`,
    "",
  ].join("\n");
}
