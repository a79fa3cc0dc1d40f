/**
 * Every error code svc answers with, and the HTTP status each maps to.
 *
 * One table for every transport: RPC, REST and the admin surface all turn an
 * {@link SvcError} into a problem-details response through this map, so a
 * client sees the same code and status whichever door it came through.
 *
 * @see ../../../../docs/errors.md
 */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  NOT_IMPLEMENTED: 501,
  UNAVAILABLE: 503,
} as const;

/** A code from {@link ERROR_STATUS}. */
export type ErrorCode = keyof typeof ERROR_STATUS;

/** Short human titles for problem details (`title` is per code, `detail` per occurrence). */
export const ERROR_TITLE: Record<ErrorCode, string> = {
  BAD_REQUEST: "Bad request",
  VALIDATION_FAILED: "Validation failed",
  UNAUTHENTICATED: "Unauthenticated",
  FORBIDDEN: "Forbidden",
  NOT_FOUND: "Not found",
  METHOD_NOT_ALLOWED: "Method not allowed",
  CONFLICT: "Conflict",
  PAYLOAD_TOO_LARGE: "Payload too large",
  RATE_LIMITED: "Too many requests",
  INTERNAL: "Internal error",
  NOT_IMPLEMENTED: "Not implemented",
  UNAVAILABLE: "Service unavailable",
};

/** True when `value` names a known error code. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && Object.hasOwn(ERROR_STATUS, value);
}
