import { SvcError, type ValidationIssue } from "./svc-error.ts";

/**
 * How many issues a `VALIDATION_FAILED` answer lists. A 1 MB body with 90,000
 * unknown fields used to answer a 4.7 MB error; the first issues are what a
 * developer fixes first, and the count of the rest is still reported.
 */
export const MAX_REPORTED_ISSUES = 50;

/** `data` of a capped `VALIDATION_FAILED` answer. */
export interface OmittedIssues {
  /** How many issues were found beyond the {@link MAX_REPORTED_ISSUES} listed. */
  omittedIssues: number;
}

/**
 * The one way svc builds a `VALIDATION_FAILED` error, whoever found the
 * issues (procedure arguments, table documents, auth fields, admin bodies):
 * the first issue in the message, at most {@link MAX_REPORTED_ISSUES} listed,
 * and `data.omittedIssues` when capped.
 *
 * @example
 * ```ts
 * throw validationFailed(toValidationIssues("args", issues));
 * throw validationFailed([{ path: "body.name", message: "must be at most 256 characters" }]);
 * ```
 */
export function validationFailed(
  issues: readonly ValidationIssue[],
  prefix = "",
): SvcError<OmittedIssues | undefined> {
  const listed = issues.slice(0, MAX_REPORTED_ISSUES);
  const first = listed[0] ?? { path: "args", message: "is not valid" };
  const omitted = issues.length - listed.length;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : "";
  return new SvcError("VALIDATION_FAILED", `${prefix}${first.path}: ${first.message}${more}`, {
    data: omitted > 0 ? { omittedIssues: omitted } : undefined,
    issues: [...listed],
  });
}
