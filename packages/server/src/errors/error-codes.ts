import { defineErrorCodes, type ErrorCodeSpec } from "./define-error-codes.ts";

/**
 * Every error code svc answers with, its HTTP status and its problem-details
 * title, declared once.
 *
 * One table for every transport: RPC, REST and the admin surface all turn an
 * {@link SvcError} into a problem-details response through it, so a client
 * sees the same code, status and title whichever door it came through.
 *
 * @see ../../../../docs/errors.md
 *
 * @example
 * ```ts
 * svcErrorCodes.problem("NOT_FOUND", "No such user.").status; // 404
 * ```
 */
export const svcErrorCodes = defineErrorCodes("SvcError", {
  BAD_REQUEST: { status: 400, title: "Bad request" },
  VALIDATION_FAILED: { status: 400, title: "Validation failed" },
  UNAUTHENTICATED: { status: 401, title: "Unauthenticated" },
  FORBIDDEN: { status: 403, title: "Forbidden" },
  NOT_FOUND: { status: 404, title: "Not found" },
  METHOD_NOT_ALLOWED: { status: 405, title: "Method not allowed" },
  CONFLICT: { status: 409, title: "Conflict" },
  PAYLOAD_TOO_LARGE: { status: 413, title: "Payload too large" },
  RATE_LIMITED: { status: 429, title: "Too many requests" },
  INTERNAL: { status: 500, title: "Internal error" },
  NOT_IMPLEMENTED: { status: 501, title: "Not implemented" },
  UNAVAILABLE: { status: 503, title: "Service unavailable" },
});

/** A code from {@link svcErrorCodes}. */
export type ErrorCode = keyof typeof svcErrorCodes.codes;

/**
 * The HTTP status of each code, read off {@link svcErrorCodes}.
 *
 * @example
 * ```ts
 * ERROR_STATUS.RATE_LIMITED; // 429
 * ```
 */
export const ERROR_STATUS: Readonly<Record<ErrorCode, number>> = column("status");

/** Short human titles for problem details, read off {@link svcErrorCodes}. */
export const ERROR_TITLE: Readonly<Record<ErrorCode, string>> = column("title");

/** True when `value` names a known error code. */
export const isErrorCode = svcErrorCodes.isCode;

function column<Field extends "status" | "title">(
  field: Field,
): Record<ErrorCode, ErrorCodeSpec[Field]> {
  const entries = Object.entries(svcErrorCodes.codes).map(([code, spec]) => [code, spec[field]]);
  return Object.fromEntries(entries);
}
