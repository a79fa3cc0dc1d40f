import type { ErrorCode } from "../errors/error-codes.ts";
import { SHARD_KEY_HEADER, SHARD_KEY_PARAM, SHARD_KEY_SCHEMAS } from "../model/shard-key.ts";
import { problemResponse, problemSchemas } from "../routes/problem-schemas.ts";

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
    responses[errorResponseName(Number(status))] = problemResponse(Number(status), codes, headers);
  }
  return {
    schemas: problemSchemas({
      data: "Extra data the procedure attached to its error.",
      pathExamples: ["args.items[2].name"],
    }),
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
