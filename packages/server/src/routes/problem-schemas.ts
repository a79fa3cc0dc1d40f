import { ERROR_STATUS, ERROR_TITLE, type ErrorCode } from "../errors/error-codes.ts";
import type { JsonSchema } from "../values/validator.ts";

/** What differs between the documents that describe problem details: their wording. */
export interface ProblemSchemaText {
  /** The description of the problem's `data` member. */
  data: string;
  /** Example `path`s of a validation issue (`body.role`, `args.items[2].name`). */
  pathExamples: string[];
}

/**
 * The `Problem` (RFC 9457) and `ValidationIssue` schemas every svc OpenAPI
 * document holds under `components.schemas`: the app's REST document and
 * the admin documents both take them from here.
 *
 * @example
 * ```ts
 * const schemas = { ...problemSchemas({ data: "Extra data.", pathExamples: ["body.role"] }) };
 * ```
 */
export function problemSchemas(text: ProblemSchemaText): Record<string, JsonSchema> {
  return {
    Problem: {
      type: "object",
      description: "RFC 9457 problem details.",
      required: ["type", "title", "status", "code", "detail"],
      properties: {
        type: {
          type: "string",
          description: "A URN per code, e.g. urn:svc:error:validation-failed.",
        },
        title: { type: "string" },
        status: { type: "integer" },
        code: { type: "string", enum: Object.keys(ERROR_STATUS) },
        detail: { type: "string", description: "What went wrong, for humans." },
        errors: {
          type: "array",
          description: "Per-field issues (VALIDATION_FAILED only).",
          items: { $ref: "#/components/schemas/ValidationIssue" },
        },
        data: { description: text.data },
      },
    },
    ValidationIssue: {
      type: "object",
      required: ["path", "message"],
      properties: {
        path: { type: "string", examples: text.pathExamples },
        message: { type: "string" },
      },
    },
  };
}

/**
 * The OpenAPI response of one error status: a problem whose `code` is one
 * of `codes` and whose `status` is `status`, with the headers it carries
 * (`Allow`, `Retry-After`, …). The one writer of error responses for every
 * svc document.
 *
 * @example
 * ```ts
 * responses["404"] = problemResponse(404, ["NOT_FOUND"]);
 * ```
 */
export function problemResponse(
  status: number,
  codes: readonly ErrorCode[],
  headers: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    description: codes.map((code) => `\`${code}\`: ${ERROR_TITLE[code]}`).join("; "),
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    content: {
      "application/problem+json": {
        schema: {
          allOf: [
            { $ref: "#/components/schemas/Problem" },
            { properties: { code: { enum: [...codes] }, status: { const: status } } },
          ],
        },
      },
    },
  };
}
