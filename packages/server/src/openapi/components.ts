import type { ErrorCode } from "../errors/error-codes.ts";
import { SHARD_KEY_HEADER, SHARD_KEY_PARAM, SHARD_KEY_SCHEMAS } from "../model/shard-key.ts";
import {
  problemResponseName,
  problemResponses,
  type SecurityRequirement,
} from "../routes/openapi-emit.ts";
import { problemSchemas } from "../routes/problem-schemas.ts";

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

/**
 * What each REST operation may be called with: anonymously, a session
 * cookie, a bearer token or an API key (the procedure decides what it needs).
 */
export const REST_SECURITY: readonly SecurityRequirement[] = [
  {},
  { sessionCookie: [] },
  { bearerAuth: [] },
  { apiKey: [] },
];

/** The `components` section every svc document shares. */
export function sharedComponents(): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const [status, answer] of Object.entries(
    problemResponses(Object.values(REST_ERROR_CODES).flat(), { rateLimit: RATE_LIMIT_HEADERS }),
  ))
    responses[problemResponseName(Number(status))] = answer;
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
