import type { ErrorCode, ValidationIssue } from "@svc/server";

/** Codes only the client produces: the request never got a proper svc answer. */
export type ClientOnlyCode = "NETWORK_ERROR" | "PROTOCOL_ERROR";

/**
 * Every failure of an svc call, with the server's code (`FORBIDDEN`,
 * `VALIDATION_FAILED`, ...) or a client-only one. Branch on `code`, show
 * `message` (the problem-details `detail`).
 *
 * @example
 * ```ts
 * try { await client.mutation(api.messages.send, { body }); }
 * catch (error) { if (error instanceof SvcClientError && error.code === "UNAUTHENTICATED") signIn(); }
 * ```
 */
export class SvcClientError extends Error {
  override readonly name = "SvcClientError";
  readonly code: ErrorCode | ClientOnlyCode;
  /** HTTP status, or 0 when no response arrived. */
  readonly status: number;
  /** Per-field issues for `VALIDATION_FAILED`. */
  readonly issues: ValidationIssue[] | undefined;
  readonly data: unknown;

  constructor(
    code: ErrorCode | ClientOnlyCode,
    message: string,
    details: { status?: number; issues?: ValidationIssue[]; data?: unknown; cause?: unknown } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    this.status = details.status ?? 0;
    this.issues = details.issues;
    this.data = details.data;
  }
}

/** Builds the error for a problem-details body (or anything else a server sent). */
export function errorFromProblem(status: number, body: unknown): SvcClientError {
  const problem = (typeof body === "object" && body !== null ? body : {}) as Record<
    string,
    unknown
  >;
  if (typeof problem.code !== "string" || typeof problem.detail !== "string") {
    return new SvcClientError("PROTOCOL_ERROR", `Unexpected response (HTTP ${status}).`, {
      status,
    });
  }
  return new SvcClientError(problem.code as ErrorCode, problem.detail, {
    status,
    ...(Array.isArray(problem.errors) ? { issues: problem.errors as ValidationIssue[] } : {}),
    ...(problem.data !== undefined ? { data: problem.data } : {}),
  });
}
