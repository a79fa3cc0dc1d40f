import type { ErrorCode } from "../errors/error-codes.ts";
import { ERROR_STATUS, ERROR_TITLE } from "../errors/error-codes.ts";
import { SHARD_KEY_HEADER, SHARD_KEY_PARAM, SHARD_KEY_SCHEMAS } from "../model/shard-key.ts";

/** Name of better-auth's default session cookie (its `cookiePrefix` is `better-auth`). */
export const SESSION_COOKIE = "better-auth.session_token";

/** Error codes each REST operation may answer, by status. */
export const REST_ERROR_CODES: Readonly<Record<number, readonly ErrorCode[]>> = {
  400: ["BAD_REQUEST", "VALIDATION_FAILED"],
  401: ["UNAUTHENTICATED"],
  403: ["FORBIDDEN"],
  404: ["NOT_FOUND"],
  405: ["METHOD_NOT_ALLOWED"],
  409: ["CONFLICT"],
  413: ["PAYLOAD_TOO_LARGE"],
  429: ["RATE_LIMITED"],
  500: ["INTERNAL"],
  503: ["UNAVAILABLE"],
};

const RATE_LIMIT_HEADERS = {
  "RateLimit-Limit": {
    description: "Requests allowed in the current window.",
    schema: { type: "integer" },
  },
  "RateLimit-Remaining": {
    description: "Requests left in the current window.",
    schema: { type: "integer" },
  },
  "RateLimit-Reset": {
    description: "Seconds until the window resets.",
    schema: { type: "integer" },
  },
};

/** Name of the reusable response for a status (`#/components/responses/<name>`). */
export function errorResponseName(status: number): string {
  return `Error${status}`;
}

/** The `components` section every svc document shares. */
export function sharedComponents(): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const [status, codes] of Object.entries(REST_ERROR_CODES)) {
    const headers: Record<string, unknown> = {};
    if (status === "429") {
      headers["Retry-After"] = {
        description: "Whole seconds to wait (at least 1).",
        schema: { type: "integer", minimum: 1 },
      };
      Object.assign(headers, RATE_LIMIT_HEADERS);
    }
    if (status === "405")
      headers.Allow = { description: "Methods this route accepts.", schema: { type: "string" } };
    responses[errorResponseName(Number(status))] = {
      description: codes.map((code) => `\`${code}\`: ${ERROR_TITLE[code]}`).join("; "),
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      content: {
        "application/problem+json": {
          schema: {
            allOf: [
              { $ref: "#/components/schemas/Problem" },
              { properties: { code: { enum: [...codes] }, status: { const: Number(status) } } },
            ],
          },
        },
      },
    };
  }
  return {
    schemas: {
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
          data: { description: "Extra data the procedure attached to its error." },
        },
      },
      ValidationIssue: {
        type: "object",
        required: ["path", "message"],
        properties: {
          path: { type: "string", examples: ["args.items[2].name"] },
          message: { type: "string" },
        },
      },
    },
    responses,
    parameters: {
      ShardKey: {
        name: SHARD_KEY_PARAM,
        in: "query",
        required: false,
        description:
          "Shard to run in; wins over the header. Never passed to the procedure. Any text without control characters, 1 to 256 code points.",
        schema: { ...SHARD_KEY_SCHEMAS.query },
      },
      ShardKeyHeader: {
        name: SHARD_KEY_HEADER,
        in: "header",
        required: false,
        description:
          "Shard to run in, when the query parameter is absent. Printable ASCII only (header values are bytes): send other keys in the query parameter.",
        schema: { ...SHARD_KEY_SCHEMAS.header },
      },
    },
    securitySchemes: {
      sessionCookie: {
        type: "apiKey",
        in: "cookie",
        name: SESSION_COOKIE,
        description: "A better-auth session cookie.",
      },
      bearerAuth: {
        type: "http",
        scheme: "bearer",
        description:
          "A better-auth session token (with the bearer plugin), or an API key (`svc_…`).",
      },
      apiKey: {
        type: "apiKey",
        in: "header",
        name: "x-api-key",
        description: "An API key (`svc_…`): its scopes decide what it may call.",
      },
    },
  };
}

/** Headers every successful REST response may carry. */
export const SUCCESS_HEADERS = RATE_LIMIT_HEADERS;
