import { type ErrorCode, isErrorCode, svcErrorCodes } from "./error-codes.ts";

/** One rejected value inside the arguments: where, and why. */
export interface ValidationIssue {
  /** Path from the root, e.g. `args.items[2].name`. */
  path: string;
  message: string;
}

/**
 * What an {@link SvcError} carries besides its code and message (its
 * `cause` as every error class declared by `defineErrorCodes` takes it).
 */
export interface SvcErrorOptions<Data = unknown> {
  /** Client-safe data sent with the error (problem details `data`). */
  data?: Data;
  /** Per-field issues for `VALIDATION_FAILED` (problem details `errors`). */
  issues?: ValidationIssue[];
  /** Extra response headers (e.g. `Allow`, `Retry-After`). Not part of the body. */
  headers?: Record<string, string>;
  /** The error this one wraps; kept for logs, never sent to clients. */
  cause?: unknown;
}

/**
 * The error class of svc's answers, declared by {@link svcErrorCodes}. Throw it from a procedure or middleware to choose
 * the code (and so the HTTP status) the caller receives; RPC and REST callers
 * get the same `code` and `message`.
 *
 * @example
 * ```ts
 * throw new SvcError("FORBIDDEN", "Only the author may edit this message");
 * throw new SvcError("RATE_LIMITED", "Slow down.", { headers: { "retry-after": "3" } });
 * ```
 */
export class SvcError<Data = unknown> extends svcErrorCodes.Error {
  override readonly name = "SvcError";
  /** Extra, client-safe data sent with the error (problem details `data`). */
  readonly data: Data | undefined;
  /** Per-field issues for `VALIDATION_FAILED` (problem details `errors`). */
  readonly issues: ValidationIssue[] | undefined;
  /** Extra response headers (e.g. `Allow`, `Retry-After`). Not part of the body. */
  readonly headers: Record<string, string> | undefined;

  constructor(code: ErrorCode, message: string, options: SvcErrorOptions<Data> = {}) {
    super(code, message, options);
    this.data = options.data;
    this.issues = options.issues;
    this.headers = options.headers;
  }
}

/** The serialisable form of an error that crosses the Durable Object boundary. */
export interface SerializedError {
  code: ErrorCode;
  message: string;
  data?: unknown;
  issues?: ValidationIssue[];
  headers?: Record<string, string>;
}

/** Flattens an {@link SvcError} so it can cross a structured-clone boundary intact. */
export function serializeError(error: SvcError): SerializedError {
  const out: SerializedError = { code: error.code, message: error.message };
  if (error.data !== undefined) out.data = error.data;
  if (error.issues) out.issues = error.issues;
  if (error.headers) out.headers = error.headers;
  return out;
}

/** Rebuilds an {@link SvcError} from {@link serializeError}'s output. */
export function deserializeError(shape: SerializedError): SvcError {
  const code = isErrorCode(shape.code) ? shape.code : "INTERNAL";
  return new SvcError(code, shape.message, {
    data: shape.data,
    issues: shape.issues,
    headers: shape.headers,
  });
}
