import { ERROR_STATUS } from "../errors/error-codes.ts";
import { normalizeError } from "../errors/normalize.ts";
import { PROBLEM_CONTENT_TYPE, toProblem } from "../errors/problem.ts";
import { sizedResponse } from "../observability/body-size.ts";
import { noteProblem } from "../observability/call-scope.ts";

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
