import { noteProblem } from "../observability/call-scope.ts";
import { sizedResponse } from "../worker/body-size.ts";
import type { ProblemFields } from "./define-error-codes.ts";
import { ERROR_STATUS, svcErrorCodes } from "./error-codes.ts";
import { normalizeError } from "./normalize.ts";
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

/** What else a problem answer needs: see {@link problemResponse}. */
export interface ProblemAnswerInit {
  /**
   * The request answered: its call's record learns the code and the thrown
   * value's message and stack. Without one, the call running now does
   * (app code the worker runs: HTTP actions, cron jobs, queue consumers).
   */
  request?: Request;
  /** Headers the answer carries besides the error's own (a rate limit's). */
  headers?: HeadersInit;
}

/**
 * A complete problem-details `Response` for anything thrown. Carries the
 * error's extra headers (`Allow`, `Retry-After`, `WWW-Authenticate`),
 * `cache-control: no-store` and its length. The call being recorded (if any)
 * learns the code and, server-side only, the thrown value's message and stack.
 *
 * @example
 * ```ts
 * try { return await route(request); } catch (error) { return problemResponse(error, { request }); }
 * ```
 */
export function problemResponse(thrown: unknown, init?: ProblemAnswerInit): Response {
  const error = normalizeError(thrown);
  noteProblem(init?.request ?? null, error.code, ERROR_STATUS[error.code], thrown);
  const headers = new Headers(init?.headers);
  headers.set("content-type", PROBLEM_CONTENT_TYPE);
  headers.set("cache-control", "no-store");
  for (const [name, value] of Object.entries(error.headers ?? {})) headers.set(name, value);
  return sizedResponse(JSON.stringify(toProblem(error)), ERROR_STATUS[error.code], headers);
}
