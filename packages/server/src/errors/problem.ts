import type { ProblemFields } from "./define-error-codes.ts";
import { svcErrorCodes } from "./error-codes.ts";
import type { SvcError, ValidationIssue } from "./svc-error.ts";

/** RFC 9457 problem details as svc sends them. */
export interface ProblemDetails extends ProblemFields {
  errors?: ValidationIssue[];
  data?: unknown;
}

/** Media type of every svc error body. */
export const PROBLEM_CONTENT_TYPE = "application/problem+json";

/** The problem-details body for an error. `type` is a stable URN per code. */
export function toProblem(error: SvcError): ProblemDetails {
  const problem: ProblemDetails = svcErrorCodes.problem(error.code, error.message);
  if (error.issues) problem.errors = error.issues;
  if (error.data !== undefined) problem.data = error.data;
  return problem;
}
